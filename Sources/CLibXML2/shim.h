#ifndef NEWSGEN_CLIBXML2_SHIM_H
#define NEWSGEN_CLIBXML2_SHIM_H

/* Debian's libxml2 is built with ICU, so its encoding.h includes the system's
 * <unicode/ucnv.h>. Swift 6.3's Foundation brings its own, newer ICU module
 * (_FoundationICU), and the two definitions of UErrorCode clash when both reach
 * one Swift module. newsgen never touches the ICU fields of libxml2's encoding
 * handler (it only holds pointers to it), so the headers are read without ICU. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>
#include <libxml/relaxng.h>
#include <libxml/xmlreader.h>
#include <string.h>

/* newsgen reads libxml2's strings in place and never receives one it must free. Code that
 * does (xmlNodeGetContent, xmlGetProp) must free it through an inline wrapper here: xmlFree
 * is a global function pointer, which Swift 6 treats as shared mutable state. */

/// An external entity loader that loads nothing: feeds are untrusted, and no DTD,
/// external entity or XInclude may ever reach the file system or the network.
static inline xmlParserInputPtr newsgen_refuseExternalEntity(const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url; (void)id; (void)context;
    return NULL;
}

static inline void newsgen_installEntityLoaderGuard(void) {
    xmlSetExternalEntityLoader(newsgen_refuseExternalEntity);
}

/// Reads `size` bytes of XML strictly with libxml2's SAX2 parser, building nothing: `start` and
/// `end` are called for each element's tags, `entity` for each entity the document type
/// declares and `error` for each diagnostic, each with the parser's context, whose `_private`
/// is `state` (the context's `input->line` is the line the parser is on). The bytes are pushed
/// to the parser 64 KiB at a time, so that it holds no more of them than that (a parser of the
/// whole buffer copies it first, and at 100,000 stories an archive page is megabytes). Returns
/// 1 when the document is well-formed, 0 when not, -1 when libxml2 could not start.
static inline int newsgen_scanElements(const char *bytes, int size, int options, void *state,
                                       startElementNsSAX2Func start, endElementNsSAX2Func end,
                                       entityDeclSAXFunc entity, xmlStructuredErrorFunc error) {
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = start;
    handler.endElementNs = end;
    handler.entityDecl = entity;
    handler.serror = error;
    xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&handler, NULL, NULL, 0, NULL);
    if (context == NULL) return -1;
    context->_private = state;
    xmlCtxtUseOptions(context, options);
    const int chunk = 64 * 1024;
    for (int offset = 0; offset < size; offset += chunk) {
        xmlParseChunk(context, bytes + offset, size - offset < chunk ? size - offset : chunk, 0);
    }
    xmlParseChunk(context, NULL, 0, 1);
    int wellFormed = context->wellFormed;
    if (context->myDoc != NULL) xmlFreeDoc(context->myDoc);
    xmlFreeParserCtxt(context);
    return wellFormed;
}

#endif
