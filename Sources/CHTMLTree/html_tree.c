/* See html_tree.h. libxml2 is opened when the first document with raw HTML is read, not when
 * the process starts (it brings ICU: three more libraries for every process), the same way
 * COptionalLibraries loads librsvg; its headers give the types, dlsym the functions. */
#include "html_tree.h"
#include <dlfcn.h>
#include <libxml/HTMLparser.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    htmlDocPtr (*read)(const char *, int, const char *, const char *, int);
    void (*free_doc)(xmlDocPtr);
    xmlNodePtr (*root)(const xmlDoc *);
    xmlChar *(*content)(const xmlNode *);
    void (*init)(void);
    xmlFreeFunc *free_memory;
} xml;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Why libxml2 cannot be used, or empty: a walk then reports nothing and returns -2. */
static char problem[512];

static void *symbol(void *handle, const char *name) {
    void *found = dlsym(handle, name);
    if (!found && !problem[0]) snprintf(problem, sizeof problem, "libxml2 has no %s (%s)", name, dlerror());
    return found;
}

/* Opened once (pthread_once): libxml2's own set-up, xmlInitParser, is not safe to race. */
static void open_libxml2(void) {
    void *handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
        snprintf(problem, sizeof problem, "libxml2.so.2 is needed for raw HTML and cannot be loaded (%s); run `make setup`", dlerror());
        return;
    }
    xml.read = symbol(handle, "htmlReadMemory");
    xml.free_doc = symbol(handle, "xmlFreeDoc");
    xml.root = symbol(handle, "xmlDocGetRootElement");
    xml.content = symbol(handle, "xmlNodeGetContent");
    xml.init = symbol(handle, "xmlInitParser");
    xml.free_memory = symbol(handle, "xmlFree");
    if (!problem[0]) xml.init();
}

const char *textreel_html_problem(void) {
    pthread_once(&once, open_libxml2);
    return problem[0] ? problem : NULL;
}

static void walk(xmlNodePtr node, void *context, textreel_html_visitor visit) {
    for (; node; node = node->next) {
        if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) {
            if (node->content) visit(context, TEXTREEL_HTML_TEXT, NULL, (const char *)node->content);
        } else if (node->type == XML_ELEMENT_NODE) {
            visit(context, TEXTREEL_HTML_ENTER, (const char *)node->name, NULL);
            for (xmlAttrPtr attribute = node->properties; attribute; attribute = attribute->next) {
                xmlChar *value = xml.content((const xmlNode *)attribute);
                visit(context, TEXTREEL_HTML_ATTRIBUTE, (const char *)attribute->name, value ? (const char *)value : "");
                if (value) (*xml.free_memory)(value);
            }
            walk(node->children, context, visit);
            visit(context, TEXTREEL_HTML_LEAVE, (const char *)node->name, NULL);
        }
    }
}

int textreel_html_walk(const char *html, size_t length, void *context, textreel_html_visitor visit) {
    if (textreel_html_problem()) return -2;
    int options = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET;
    htmlDocPtr document = xml.read(html, (int)length, NULL, "UTF-8", options);
    if (!document) return -1;
    xmlNodePtr root = xml.root(document);
    for (xmlNodePtr part = root ? root->children : NULL; part; part = part->next) {
        if (part->type == XML_ELEMENT_NODE) walk(part->children, context, visit);
    }
    xml.free_doc(document);
    return 0;
}
