/* Raw HTML of a document, parsed by libxml2's HTML parser and walked in document order. The
 * header uses plain C types only: libxml2's own headers bring ICU's, which clash with the copy
 * Foundation carries, so Swift never sees them. */
#include <stddef.h>

enum textreel_html_event {
    TEXTREEL_HTML_ENTER = 0,     /* an element starts: name */
    TEXTREEL_HTML_ATTRIBUTE = 1, /* one of its attributes: name, value */
    TEXTREEL_HTML_TEXT = 2,      /* text (entities decoded): value */
    TEXTREEL_HTML_LEAVE = 3,     /* the element ends */
};

typedef void (*textreel_html_visitor)(void *context, int event, const char *name, const char *value);

/* Why libxml2 cannot be used (it is opened on first use), or NULL when it can. */
const char *textreel_html_problem(void);

/* Parses `length` bytes of UTF-8 HTML, recovering from broken markup, and reports the
 * children of <head> and <body> (comments left out). Returns 0, -1 when libxml2 made no
 * document, or -2 when libxml2 cannot be used (textreel_html_problem says why). */
int textreel_html_walk(const char *html, size_t length, void *context, textreel_html_visitor visit);
