/* See html_tree.h. Gumbo implements the HTML5 parsing algorithm, the tree builder every browser
 * runs: unclosed and misnested tags, text before a table's rows, comments, CDATA and processing
 * instructions come out as a browser shows them. It has no global state (each parse owns its
 * output), so two threads may parse at once. */
#include "html_tree.h"
#include <gumbo.h>
#include <stdio.h>
#include <string.h>

static const GumboVector *children_of(const GumboNode *node) {
    switch (node->type) {
    case GUMBO_NODE_DOCUMENT: return &node->v.document.children;
    case GUMBO_NODE_ELEMENT:
    case GUMBO_NODE_TEMPLATE: return &node->v.element.children;
    default: return NULL;
    }
}

/* An element's name as written when Gumbo does not know the tag (`<picture>`), else Gumbo's. */
static void element_name(const GumboNode *node, char *name, size_t size) {
    const GumboElement *element = &node->v.element;
    if (element->tag != GUMBO_TAG_UNKNOWN) {
        snprintf(name, size, "%s", gumbo_normalized_tagname(element->tag));
        return;
    }
    GumboStringPiece piece = element->original_tag;
    gumbo_tag_from_original_text(&piece);
    size_t length = piece.length < size - 1 ? piece.length : size - 1;
    memcpy(name, piece.data ? piece.data : "", piece.data ? length : 0);
    name[piece.data ? length : 0] = 0;
}

static void enter(const GumboNode *node, void *context, textreel_html_visitor visit) {
    char name[128];
    element_name(node, name, sizeof name);
    visit(context, TEXTREEL_HTML_ENTER, name, NULL);
    const GumboVector *attributes = &node->v.element.attributes;
    for (unsigned k = 0; k < attributes->length; k++) {
        const GumboAttribute *attribute = attributes->data[k];
        visit(context, TEXTREEL_HTML_ATTRIBUTE, attribute->name, attribute->value);
    }
}

/* The nodes under `top`, in document order, without recursion (a document may nest deeply):
 * down to a child, across to a sibling, up to a parent's next sibling. Elements deeper than
 * TEXTREEL_HTML_DEEPEST are reported without their content; returns whether any was. */
static int walk(const GumboNode *top, void *context, textreel_html_visitor visit) {
    const GumboVector *first = children_of(top);
    if (!first || first->length == 0) return 0;
    const GumboNode *node = first->data[0];
    int depth = 1, cut = 0;
    while (node) {
        const GumboVector *inside = NULL;
        switch (node->type) {
        case GUMBO_NODE_TEXT:
        case GUMBO_NODE_CDATA:
        case GUMBO_NODE_WHITESPACE:
            visit(context, TEXTREEL_HTML_TEXT, NULL, node->v.text.text);
            break;
        case GUMBO_NODE_ELEMENT:
        case GUMBO_NODE_TEMPLATE:
            enter(node, context, visit);
            inside = children_of(node);
            if (inside && inside->length > 0 && depth >= TEXTREEL_HTML_DEEPEST) { cut = 1; inside = NULL; }
            if (inside && inside->length > 0) { node = inside->data[0]; depth++; continue; }
            visit(context, TEXTREEL_HTML_LEAVE, NULL, NULL);
            break;
        default: /* comments: no browser shows them */
            break;
        }
        /* Across, or up until there is a next sibling. */
        while (node) {
            const GumboNode *parent = node->parent;
            const GumboVector *siblings = children_of(parent);
            size_t next = node->index_within_parent + 1;
            if (siblings && next < siblings->length) { node = siblings->data[next]; break; }
            if (parent == top) { node = NULL; break; }
            visit(context, TEXTREEL_HTML_LEAVE, NULL, NULL);
            depth--;
            node = parent;
        }
    }
    return cut;
}

int textreel_html_walk(const char *html, size_t length, void *context, textreel_html_visitor visit) {
    GumboOutput *output = gumbo_parse_with_options(&kGumboDefaultOptions, html, length);
    if (!output) return -1;
    int cut = 0;
    /* <head> and <body> (what a fragment puts in the head, `<style>` or `<meta>`, stays there). */
    const GumboVector *parts = children_of(output->root);
    for (unsigned k = 0; parts && k < parts->length; k++) {
        const GumboNode *part = parts->data[k];
        if (part->type == GUMBO_NODE_ELEMENT) cut |= walk(part, context, visit);
    }
    gumbo_destroy_output(&kGumboDefaultOptions, output);
    return cut;
}
