// newsgen's search page: finds stories in the search index (version 4, README "Search") as the reader types.
// It reads the manifest and the delta once, then only the chunk of each word typed, then the records of the results
// it shows. No framework and no inline script (pages allow only their own scripts).
(function () {
  "use strict";

  // How words are read: the same rules as the index (SearchText.swift), checked against it by SearchPageTests.
  function fold(text) {
    return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/\u03c2/g, "\u03c3");
  }

  function words(text) {
    return (fold(text).match(/[\p{L}\p{N}]+/gu) || []).filter(function (word) { return Array.from(word).length >= 2; });
  }

  // The chunk of a term: FNV-1a over the scalar values of its key (its first three characters, or the whole of a
  // filter's term), modulo the manifest's count of chunks (SearchIndex.chunk).
  function chunkOf(term, count) {
    var scalars = Array.from(term);
    var key = term.charAt(0) === "~" ? scalars : scalars.slice(0, 3);
    var hash = 2166136261;
    key.forEach(function (character) {
      hash ^= character.codePointAt(0);
      hash = Math.imul(hash, 16777619) >>> 0;
    });
    return hash % count;
  }

  var digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
  var digitValue = new Int8Array(128).fill(-1);
  for (var d = 0; d < digits.length; d++) { digitValue[digits.charCodeAt(d)] = d; }

  // The stories a word lists, with their weights: `weights[story]` (0 for a story it does not list) over every number
  // of the index (`span`, holes included), and `size`, how many it lists.
  function postingList(span) {
    return { weights: new Uint8Array(span), size: 0 };
  }

  // Postings (SearchPostings.swift) into the list `into`, keeping the larger of two weights of one story.
  function decode(text, origin, into) {
    var weights = into.weights, previous = origin - 1, i = 0, length = text.length;
    while (i < length) {
      var gap = 0, digit;
      do {
        digit = digitValue[text.charCodeAt(i++)];
        gap = gap * 32 + (digit & 31);
      } while (digit >= 32 && i < length);
      previous += gap;
      var weight = i < length ? digitValue[text.charCodeAt(i++)] : 0;
      if (weight <= 0) { weight = 1; }
      if (weights[previous] === 0) { into.size++; }
      if (weights[previous] < weight) { weights[previous] = weight; }
    }
    return into;
  }

  // BM25's inverse document frequency of a term in `df` of `n` stories.
  function idf(df, n) {
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  // Ranks the stories every term lists: by the sum of each term's weight times its idf, then newest (the higher
  // number) first. `terms` are posting lists of an index of `n` stories; `allowed`, when set, a test a story must pass
  // (the filters). With `limit`, only the first `limit` are returned; the list's `total` tells how many match.
  function rank(terms, n, allowed, limit) {
    var found = [];
    found.total = 0;
    if (terms.length === 0) { return found; }
    var smallest = terms.reduce(function (a, b) { return a.size <= b.size ? a : b; }).weights;
    var lists = terms.map(function (term) { return term.weights; });
    var rarity = terms.map(function (term) { return idf(term.size, n); });
    var keep = limit || smallest.length, total = 0;
    // Newest first, so a later story with an equal score never displaces an earlier kept one.
    for (var story = smallest.length - 1; story >= 0; story--) {
      if (smallest[story] === 0) { continue; }
      var score = 0;
      for (var t = 0; t < lists.length; t++) {
        var weight = lists[t][story];
        if (weight === 0) { score = -1; break; }
        score += weight * rarity[t];
      }
      if (score < 0 || (allowed && !allowed(story))) { continue; }
      total++;
      if (found.length === keep && score <= found[keep - 1].score) { continue; }
      var at = found.length;
      while (at > 0 && score > found[at - 1].score) { at--; }
      found.splice(at, 0, { story: story, score: score });
      if (found.length > keep) { found.pop(); }
    }
    found.total = total;
    return found;
  }

  window.newsgenSearch = { fold: fold, words: words, chunkOf: chunkOf, postingList: postingList, decode: decode, rank: rank };

  var form = document.querySelector("form.search-form");
  if (!form) { return; }
  var input = document.getElementById("search-q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var filters = { source: document.getElementById("search-source"), category: document.getElementById("search-category"),
                  from: document.getElementById("search-from"), to: document.getElementById("search-to") };
  var more = element("button", "search-more", "");
  more.type = "button";
  more.hidden = true;
  list.parentNode.insertBefore(more, list.nextSibling);
  var noscript = document.getElementById("search-noscript");
  if (noscript) { noscript.parentNode.removeChild(noscript); }

  var root = form.getAttribute("data-root") || "../";
  var manifestURL = form.getAttribute("data-index") || root + "search/manifest.json";
  var folder = manifestURL.slice(0, manifestURL.lastIndexOf("/") + 1);
  // Results are shown five at a time (a phone's screen of them): each may need a record shard of its own.
  var pageSize = 5, shown = pageSize;
  // A query runs once the reader pauses this long, so typing does not fetch every prefix's records.
  var pause = 60, waiting = 0;
  var months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  // `span`: the numbers the index uses (holes included); `total`: the stories it holds.
  var manifest = null, delta = null, span = 0, total = 0;
  var files = {};
  var asked = 0;
  var announce = 0;

  function json(path) {
    if (!files[path]) {
      files[path] = fetch(folder + path).then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status + " for " + path); }
        return response.json();
      });
      files[path].catch(function () { delete files[path]; });
    }
    return files[path];
  }

  // The chunk file that holds `word`'s terms.
  function chunkFile(word) {
    return "terms/" + chunkOf(word, manifest.chunks) + ".json";
  }

  // Every story a word lists with its weight: its own postings, or, for a prefix, those of every term it begins.
  function postings(word, prefix) {
    return json(chunkFile(word)).then(function (chunk) {
      var found = postingList(span);
      [[chunk, 0], [delta.terms, delta.first]].forEach(function (pair) {
        var terms = pair[0];
        if (prefix) {
          Object.keys(terms).forEach(function (term) {
            if (term.lastIndexOf(word, 0) === 0) { decode(terms[term], pair[1], found); }
          });
        } else if (Object.prototype.hasOwnProperty.call(terms, word)) {
          decode(terms[word], pair[1], found);
        }
      });
      return found;
    });
  }

  function selected() {
    return { source: filters.source ? filters.source.value : "", category: filters.category ? filters.category.value : "",
             from: filters.from ? filters.from.value : "", to: filters.to ? filters.to.value : "" };
  }

  // The stories of a date range: a test on story numbers, from the manifest's runs of days.
  function inDays(from, to) {
    var days = manifest.days;
    return function (story) {
      var low = 0, high = days.length - 1;
      while (low < high) {
        var middle = (low + high + 1) >> 1;
        if (days[middle][1] <= story) { low = middle; } else { high = middle - 1; }
      }
      var day = days.length ? days[low][0] : "";
      return day !== "" && (!from || day >= from) && (!to || day <= to);
    };
  }

  // What `query` with `chosen` filters finds: the ranked stories (numbers) and the words to mark.
  function find(query, chosen) {
    var typed = words(query);
    var prefix = typed.length > 0 && /[\p{L}\p{N}]$/u.test(query) && Array.from(typed[typed.length - 1]).length >= 3;
    var lookups = typed.map(function (word, i) { return postings(word, prefix && i === typed.length - 1); });
    if (chosen.source) { lookups.push(postings("~s:" + chosen.source, false)); }
    if (chosen.category) { lookups.push(postings("~c:" + chosen.category, false)); }
    var allowed = chosen.from || chosen.to ? inDays(chosen.from, chosen.to) : null;
    if (lookups.length === 0 && !allowed) { return Promise.resolve(null); }
    return Promise.all(lookups).then(function (maps) {
      var wordMaps = maps.slice(0, typed.length), filterMaps = maps.slice(typed.length);
      var passes = function (story) {
        return filterMaps.every(function (list) { return list.weights[story] !== 0; }) && (!allowed || allowed(story));
      };
      var found = [];
      if (wordMaps.length > 0) {
        found = rank(wordMaps, total, passes, shown);
      } else {
        // Filters alone: their stories, newest first.
        var matching = 0;
        for (var story = span - 1; story >= 0; story--) {
          if (passes(story)) {
            matching++;
            if (found.length < shown) { found.push({ story: story, score: 0 }); }
          }
        }
        found.total = matching;
      }
      return { found: found, words: typed, prefix: prefix };
    });
  }

  function records(stories) {
    var shards = {};
    stories.forEach(function (story) { shards[Math.floor(story / manifest.shard)] = true; });
    return Promise.all(Object.keys(shards).map(function (shard) {
      return json("records/" + shard + ".json").then(function (list) { return [Number(shard), list]; });
    })).then(function (loaded) {
      var byShard = {};
      loaded.forEach(function (pair) { byShard[pair[0]] = pair[1]; });
      return stories.map(function (story) { return byShard[Math.floor(story / manifest.shard)][story % manifest.shard]; });
    });
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

  // `text` into `parent`, each word that a query word finds inside <mark>.
  function marked(parent, text, found, prefix) {
    var last = found.length - 1;
    var pattern = /[\p{L}\p{N}]+/gu, at = 0, match;
    while ((match = pattern.exec(text)) !== null) {
      var word = fold(match[0]);
      var hit = found.some(function (term, i) {
        return word === term || (prefix && i === last && word.lastIndexOf(term, 0) === 0);
      });
      if (!hit) { continue; }
      if (match.index > at) { parent.appendChild(document.createTextNode(text.slice(at, match.index))); }
      parent.appendChild(element("mark", null, match[0]));
      at = match.index + match[0].length;
    }
    if (at < text.length) { parent.appendChild(document.createTextNode(text.slice(at))); }
  }

  function row(record, found, prefix) {
    var link = record[1], source = manifest.sources[record[2]], day = record[3], snippet = record[4];
    var item = element("li", "story");
    var article = element("article");
    var text = element("div", "story-text");
    var heading = element("h2", "headline");
    var anchor = element("a");
    anchor.href = /^https?:/.test(link) ? link : root + "articles/" + link + "/";
    marked(anchor, record[0], found, prefix);
    heading.appendChild(anchor);
    text.appendChild(heading);
    if (snippet) {
      var summary = element("p", "summary");
      marked(summary, snippet, found, prefix);
      text.appendChild(summary);
    }
    var meta = element("p", "meta");
    if (source) { meta.appendChild(element("span", "source", source[1])); }
    if (day) {
      var time = element("time", null, readableDay(day));
      time.setAttribute("datetime", day);
      meta.appendChild(time);
    }
    if (meta.childNodes.length > 0) { text.appendChild(meta); }
    article.appendChild(text);
    item.appendChild(article);
    return item;
  }

  function count(n) {
    return n === 1 ? "1 story matches" : n + " stories match";
  }

  function setStatus(text) {
    // The live region is told once the reader pauses, not at every key.
    window.clearTimeout(announce);
    announce = window.setTimeout(function () { status.textContent = text; }, 250);
  }

  function describe(query, chosen) {
    var parts = [];
    if (query) { parts.push("\u201c" + query + "\u201d"); }
    if (chosen.source) {
      var source = manifest.sources.filter(function (s) { return s[0] === chosen.source; })[0];
      parts.push("from " + (source ? source[1] : chosen.source));
    }
    if (chosen.category) {
      var category = manifest.categories.filter(function (c) { return c[0] === chosen.category; })[0];
      parts.push("in " + (category ? category[1] : chosen.category));
    }
    if (chosen.from) { parts.push("from " + readableDay(chosen.from)); }
    if (chosen.to) { parts.push("to " + readableDay(chosen.to)); }
    return parts.join(" ");
  }

  // Shows what the box and filters find; a later call supersedes an earlier one still loading.
  function update() {
    if (!manifest) { return; }
    var query = input.value.trim();
    var chosen = selected();
    var ask = ++asked;
    form.setAttribute("data-busy", "true");
    find(input.value, chosen).then(function (result) {
      if (ask !== asked) { return null; }
      if (!result) { return { result: null, rows: [] }; }
      return records(result.found.map(function (hit) { return hit.story; })).then(function (rows) {
        return { result: result, rows: rows };
      });
    }).then(function (done) {
      if (!done || ask !== asked) { return; }
      while (list.firstChild) { list.removeChild(list.firstChild); }
      var result = done.result;
      var what = describe(query, chosen);
      var rest = result ? Math.min(pageSize, result.found.total - shown) : 0;
      more.hidden = rest <= 0;
      more.textContent = rest > 0 ? "Show " + (rest === 1 ? "1 more story" : rest + " more stories") : "";
      if (!result) {
        setStatus("Type to search " + (total === 1 ? "1 story" : total + " stories") + ".");
        form.setAttribute("data-count", "0");
      } else {
        done.rows.forEach(function (record) { list.appendChild(row(record, result.words, result.prefix)); });
        var n = result.found.total;
        if (n === 0) {
          setStatus("No stories match " + what + ".");
        } else if (n > shown) {
          setStatus(count(n) + " " + what + "; the first " + shown + " are shown.");
        } else {
          setStatus(count(n) + " " + what + ".");
        }
        form.setAttribute("data-count", String(n));
      }
      form.setAttribute("data-query", input.value);
      form.removeAttribute("data-busy");
    }).catch(function () {
      if (ask !== asked) { return; }
      failed();
    });
  }

  function remember() {
    var params = new URLSearchParams();
    var query = input.value.trim();
    if (query) { params.set("q", query); }
    var chosen = selected();
    ["source", "category", "from", "to"].forEach(function (name) { if (chosen[name]) { params.set(name, chosen[name]); } });
    var search = params.toString();
    try { window.history.replaceState(null, "", window.location.pathname + (search ? "?" + search : "")); } catch (error) { /* a file: URL */ }
  }

  function failed() {
    form.setAttribute("data-state", "failed");
    form.removeAttribute("data-busy");
    window.clearTimeout(announce);
    status.textContent = "The search index could not be loaded, so search does not work here. Every story is in the archive, day by day.";
  }

  // The chunks of the words typed so far (of three characters or more, whose chunk no further character changes),
  // fetched while the reader goes on typing.
  function prefetch() {
    if (!manifest) { return; }
    words(input.value).forEach(function (word) {
      if (Array.from(word).length >= 3) { json(chunkFile(word)); }
    });
  }

  // A new query or filter starts again at the first results.
  function changed() {
    prefetch();
    shown = pageSize;
    remember();
    window.clearTimeout(waiting);
    form.setAttribute("data-busy", "true");
    waiting = window.setTimeout(update, pause);
  }

  input.addEventListener("input", changed);
  Object.keys(filters).forEach(function (name) {
    if (filters[name]) { filters[name].addEventListener("change", changed); }
  });
  more.addEventListener("click", function () {
    shown += pageSize;
    update();
  });

  // Enter opens the first result; with none (or before the index is read), the form is sent
  // as it would be without script, and the page searches for ?q= when it loads.
  form.addEventListener("submit", function (event) {
    var first = list.querySelector("a");
    if (manifest && first) {
      event.preventDefault();
      window.location.href = first.href;
    }
  });

  var params = new URLSearchParams(window.location.search);
  if (params.get("q")) { input.value = params.get("q"); }
  Object.keys(filters).forEach(function (name) {
    var value = params.get(name);
    if (value && filters[name]) { filters[name].value = value; }
  });
  status.textContent = "Loading the search index\u2026";

  Promise.all([json("manifest.json"), json("delta.json")]).then(function (loaded) {
    manifest = loaded[0];
    delta = loaded[1];
    if (manifest.version !== 4) { throw new Error("search index version " + manifest.version); }
    span = delta.first + delta.count;
    total = delta.stories;
    form.setAttribute("data-state", "ready");
    update();
  }).catch(failed);
})();
