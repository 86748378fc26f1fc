/* The functions TextReel calls in libraries only some commands need are defined here under
 * their own names (see optional_libraries.c); the Swift modules declare them (CImage) or include
 * their headers (CHTTP). This header declares only the question to ask before using them. */

/* Why library `which` (0: librsvg, 1: libmicrohttpd) cannot be used, or NULL when it can. Its
 * functions answer 0 or NULL without it; the process never ends for its lack. */
const char *textreel_optional_library_problem(int which);
