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

#endif
