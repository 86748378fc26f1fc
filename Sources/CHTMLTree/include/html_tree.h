/* Raw HTML of a document, parsed as a browser parses it (Gumbo, the HTML5 tree builder) and
 * walked in document order, in plain C types. */
#include <stddef.h>

enum textreel_html_event {
    TEXTREEL_HTML_ENTER = 0,     /* an element starts: name */
    TEXTREEL_HTML_ATTRIBUTE = 1, /* one of its attributes: name, value */
    TEXTREEL_HTML_TEXT = 2,      /* text (entities decoded): value */
    TEXTREEL_HTML_LEAVE = 3,     /* the element ends */
};

/* How deep the walk reports elements: deeper content is left out, and said (a browser shows
 * every level; the reader refuses HTML this deep). */
#define TEXTREEL_HTML_DEEPEST 1024

typedef void (*textreel_html_visitor)(void *context, int event, const char *name, const char *value);

/* Parses `length` bytes of UTF-8 HTML as a browser parses a page's body, and reports the
 * children of <head> and <body> (comments left out). Returns 0, 1 when elements deeper than
 * TEXTREEL_HTML_DEEPEST were left out, or -1 when no document could be made. */
int textreel_html_walk(const char *html, size_t length, void *context, textreel_html_visitor visit);
