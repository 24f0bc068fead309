/// `/_newsgen/live.js`, which `serve --watch` adds to the pages it serves (see `LiveReload`).
///
/// A string here rather than a file embedded by Scripts/embed-files: it is one small script,
/// and only this target serves it. It builds its banner with DOM calls and `textContent` (never
/// markup from the stream) and styles it through the CSSOM, which a page's
/// Content-Security-Policy allows where it would refuse a `style` attribute.
enum LiveReloadScript {
    static let source = #"""
        // newsgen serve --watch: reloads this page after each rebuild and shows a failed build's
        // error. Served by `newsgen serve` only; the published site never refers to it.
        (function () {
          "use strict";
          if (!("EventSource" in window)) { return; }
          var events = new EventSource("/_newsgen/events");
          var lost = false;
          var banner = null;

          events.addEventListener("reload", function () { window.location.reload(); });
          events.addEventListener("build-error", function (event) { show(event.data); });
          // The server went away (stopped, restarted): reload once it is back, to show its build.
          events.addEventListener("error", function () { lost = true; });
          events.addEventListener("open", function () {
            if (lost) { window.location.reload(); }
          });

          function show(message) {
            if (banner === null) {
              banner = document.createElement("div");
              banner.setAttribute("role", "alert");
              banner.id = "newsgen-build-error";
              var style = banner.style;
              style.position = "fixed";
              style.left = "0";
              style.right = "0";
              style.bottom = "0";
              style.zIndex = "2147483647";
              style.maxHeight = "50vh";
              style.overflow = "auto";
              style.margin = "0";
              style.padding = "0.75rem 1rem";
              style.background = "#7a1010";
              style.color = "#ffffff";
              style.font = "0.9rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
              style.borderTop = "3px solid #ffb3b3";
              document.body.appendChild(banner);
            }
            while (banner.firstChild) { banner.removeChild(banner.firstChild); }
            var title = document.createElement("strong");
            title.textContent = "newsgen: the rebuild failed; this page is from the last good build.";
            var details = document.createElement("pre");
            details.style.margin = "0.5rem 0 0";
            details.style.whiteSpace = "pre-wrap";
            details.textContent = message;
            banner.appendChild(title);
            banner.appendChild(details);
          }
        })();

        """#
}
