// newsgen's search page: reads search.json and lists the stories that match as the reader
// types. No framework and no inline script (pages allow only their own scripts). The format of
// search.json is in README.md ("Search"): short keys, sources and tags named once in tables.
(function () {
  "use strict";

  var form = document.querySelector("form.search-form");
  if (!form) { return; }
  var input = document.getElementById("search-q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var noscript = document.getElementById("search-noscript");
  if (noscript) { noscript.parentNode.removeChild(noscript); }

  var root = form.getAttribute("data-root") || "../";
  var shown = 50;
  var months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var stories = null;
  var announce = 0;

  // Case and diacritics do not matter: "cafe" finds "Café", "CAFÉ" finds "cafe".
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function words(query) {
    return fold(query).split(/[\s,;:!?"“”‘’()]+/).filter(function (word) { return word.length > 0; });
  }

  function load(index) {
    var sources = index.sources || [];
    var tags = index.tags || [];
    stories = (index.articles || []).map(function (entry) {
      var source = typeof entry.s === "number" ? sources[entry.s] || "" : "";
      var tagNames = (entry.g || []).map(function (i) { return tags[i] || ""; });
      var href = entry.p ? root + "articles/" + entry.p + "/" : entry.u || "";
      return {
        title: entry.t || "", href: href, source: source, date: entry.d || "", summary: entry.x || "",
        folded: fold(entry.t || ""),
        text: fold([entry.t || "", source, tagNames.join(" "), entry.x || ""].join("\n"))
      };
    }).filter(function (story) { return story.href !== ""; });
    form.setAttribute("data-state", "ready");
    update();
  }

  function readableDay(day) {
    var parts = day.split("-");
    if (parts.length !== 3) { return day; }
    return Number(parts[2]) + " " + (months[Number(parts[1]) - 1] || "") + " " + parts[0];
  }

  function element(name, className, text) {
    var node = document.createElement(name);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }

  function row(story) {
    var item = element("li", "story");
    var article = element("article");
    var text = element("div", "story-text");
    var heading = element("h2", "headline");
    var link = element("a", null, story.title);
    link.href = story.href;
    heading.appendChild(link);
    text.appendChild(heading);
    if (story.summary) { text.appendChild(element("p", "summary", story.summary)); }
    var meta = element("p", "meta");
    if (story.source) { meta.appendChild(element("span", "source", story.source)); }
    if (story.date) {
      var time = element("time", null, readableDay(story.date));
      time.setAttribute("datetime", story.date);
      meta.appendChild(time);
    }
    if (meta.childNodes.length > 0) { text.appendChild(meta); }
    article.appendChild(text);
    item.appendChild(article);
    return item;
  }

  // Stories with every word, those with every word in the title first, each group newest first
  // (search.json lists the newest first).
  function search(query) {
    var terms = words(query);
    if (terms.length === 0) { return []; }
    var inTitle = [];
    var elsewhere = [];
    stories.forEach(function (story) {
      var all = terms.every(function (term) { return story.text.indexOf(term) !== -1; });
      if (!all) { return; }
      var title = terms.every(function (term) { return story.folded.indexOf(term) !== -1; });
      (title ? inTitle : elsewhere).push(story);
    });
    return inTitle.concat(elsewhere);
  }

  function count(n) {
    return n === 1 ? "1 story matches" : n + " stories match";
  }

  function setStatus(text) {
    // The live region is told once the reader pauses, not at every key.
    window.clearTimeout(announce);
    announce = window.setTimeout(function () { status.textContent = text; }, 250);
  }

  function update() {
    if (!stories) { return; }
    var query = input.value.trim();
    var found = search(query);
    while (list.firstChild) { list.removeChild(list.firstChild); }
    found.slice(0, shown).forEach(function (story) { list.appendChild(row(story)); });
    if (query === "") {
      setStatus("Type to search " + (stories.length === 1 ? "1 story" : stories.length + " stories") + ".");
    } else if (found.length === 0) {
      setStatus("No stories match \u201c" + query + "\u201d.");
    } else if (found.length > shown) {
      setStatus(count(found.length) + " \u201c" + query + "\u201d; the first " + shown + " are shown.");
    } else {
      setStatus(count(found.length) + " \u201c" + query + "\u201d.");
    }
    form.setAttribute("data-count", String(found.length));
  }

  function remember() {
    var query = input.value.trim();
    var url = window.location.pathname + (query ? "?q=" + encodeURIComponent(query) : "");
    try { window.history.replaceState(null, "", url); } catch (error) { /* a file: URL */ }
  }

  input.addEventListener("input", function () { update(); remember(); });

  // Enter opens the first result; with none (or before the index is read), the form is sent
  // as it would be without script, and the page searches for ?q= when it loads.
  form.addEventListener("submit", function (event) {
    var first = list.querySelector("a");
    if (stories && first) {
      event.preventDefault();
      window.location.href = first.href;
    }
  });

  var query = new URLSearchParams(window.location.search).get("q");
  if (query) { input.value = query; }
  status.textContent = "Loading the stories\u2026";

  fetch(form.getAttribute("data-index") || root + "search.json")
    .then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.json();
    })
    .then(load)
    .catch(function () {
      form.setAttribute("data-state", "failed");
      window.clearTimeout(announce);
      status.textContent = "The list of stories could not be loaded, so search does not work here. Every story is in the archive, day by day.";
    });
})();
