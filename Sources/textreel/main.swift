print("textreel")
