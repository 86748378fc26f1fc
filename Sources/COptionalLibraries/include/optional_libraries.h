/* Nothing to include: this target defines, under their own names, the few functions TextReel
 * calls in libraries only some commands need (see optional_libraries.c). */
