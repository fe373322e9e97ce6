/* The arranging page of 十三水: one player's hand as cards, dragged (or
 * tapped) into the head, middle and tail, then confirmed.
 *
 * The page holds only a draft. Every rule question goes to the server: the
 * lanes' categories and the foul warning (POST /api/evaluate), the
 * suggestions (/api/suggest), the confirm and the declare. Every word comes
 * from the room's catalog (GET /app/strings/<language>.json); this file
 * holds none. Once the round is shown, the page shows its showdown and the
 * player's review (GET /api/showdown). See docs/webapp.md.
 */
(function () {
  "use strict";

  // Where the page runs (Telegram, Discord's Activity, a plain link): host.js.
  var host = window.PageHost || { kind: "link", telegram: null };
  var tg = host.telegram;
  var SIZES = { head: 3, middle: 5, tail: 5 };
  var LANES = ["head", "middle", "tail"];
  var PLACES = ["hand", "head", "middle", "tail"];
  var KEEP = 13;
  var POLL_MS = 3000;
  var SHOWDOWN_MS = 1500; // the showdown's steps are about as far apart
  var EVALUATE_MS = 150;
  var UNDO_DEPTH = 50;
  var SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  var SUIT_ORDER = { j: 0, s: 1, h: 2, d: 3, c: 4 };
  var RANK_VALUE = { T: 10, J: 11, Q: 12, K: 13, A: 14 };

  var page = {
    pass: null,
    hand: null, // the server's last answer (GET /api/hand and friends)
    words: {},
    language: document.documentElement.lang, // the server's reading of Accept-Language
    mode: "loading", // arranging | done | over | error
    lanes: { hand: [], head: [], middle: [], tail: [] }, // card indexes
    history: [],
    selected: null,
    sort: "rank",
    serverLanes: "", // the stored lanes last seen, to follow keyboard taps
    offset: 0, // server clock minus ours, seconds
    labels: { head: null, middle: null, tail: null },
    foul: null,
    draftSpecial: null, // 多三张: the special of the 13 cards the draft keeps (POST /api/evaluate)
    evalSeq: 0,
    evalTimer: 0,
    suggestions: null,
    busy: null,
    closing: false,
    main: "",
    sortables: [],
    cardEls: {},
    dragging: false,
    pollTimer: 0,
    toastTimer: 0,
    showdown: null, // GET /api/showdown's last answer, once the round is shown
    showing: false, // asked for it
    showdownFailed: false,
    showdownDrawn: "",
    momentsSeen: {}, // the moments already stamped (stamped once, not at every poll)
    showTimer: 0,
    laid: "", // the draft last sent as the page was hidden (POST /api/lay)
  };

  // ---------------------------------------------------------------- helpers
  function $(selector, within) {
    return (within || document).querySelector(selector);
  }

  function $$(selector, within) {
    return Array.prototype.slice.call((within || document).querySelectorAll(selector));
  }

  /** The catalog text of ``key`` with its {placeholders} filled. */
  function word(key, params) {
    var text = Object.prototype.hasOwnProperty.call(page.words, key) ? page.words[key] : key;
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }

  /** Call a Telegram method only where the client has it; never throw. */
  function telegram(fn) {
    if (!tg) return undefined;
    try {
      return fn(tg);
    } catch (error) {
      return undefined;
    }
  }

  function supports(version) {
    return !!telegram(function (w) {
      return typeof w.isVersionAtLeast === "function" ? w.isVersionAtLeast(version) : false;
    });
  }

  function haptic(kind, style) {
    telegram(function (w) {
      if (!w.HapticFeedback || !supports("6.1")) return;
      if (kind === "impact") w.HapticFeedback.impactOccurred(style);
      else w.HapticFeedback.notificationOccurred(style);
    });
  }

  function copyLanes(lanes) {
    return {
      hand: lanes.hand.slice(),
      head: lanes.head.slice(),
      middle: lanes.middle.slice(),
      tail: lanes.tail.slice(),
    };
  }

  function sameLanes(a, b) {
    return PLACES.every(function (p) {
      return a[p].length === b[p].length && a[p].every(function (x, i) { return x === b[p][i]; });
    });
  }

  function placeOf(index) {
    for (var i = 0; i < PLACES.length; i++) {
      if (page.lanes[PLACES[i]].indexOf(index) >= 0) return PLACES[i];
    }
    return null;
  }

  function placedCount() {
    return page.lanes.head.length + page.lanes.middle.length + page.lanes.tail.length;
  }

  function complete() {
    return LANES.every(function (lane) { return page.lanes[lane].length === SIZES[lane]; });
  }

  function draft() {
    return { head: page.lanes.head.slice(), middle: page.lanes.middle.slice(), tail: page.lanes.tail.slice() };
  }

  /** 多三张: once the lanes are full, the cards left in the row are the
   * discarded ones, shown in their own place (data-lane="discard"). The
   * draft keeps them in ``hand``; ``discard`` is only where they are drawn. */
  function discarding() {
    return !!page.hand && page.hand.cards.length > KEEP && complete();
  }

  /** The draft's place drawn as ``place``. */
  function draftPlace(place) {
    return place === "discard" ? "hand" : place;
  }

  function draftKey() {
    return JSON.stringify([page.lanes.head, page.lanes.middle, page.lanes.tail]);
  }

  /** The draft is the page's alone: the table stores other lanes, and it was
   * not sent as the page was hidden. */
  function unsent() {
    var key = draftKey();
    return key !== page.serverLanes && key !== page.laid;
  }

  function serverKey(hand) {
    return JSON.stringify([hand.lanes.head, hand.lanes.middle, hand.lanes.tail]);
  }

  // ---------------------------------------------------------------- cards
  function parse(token) {
    if (token === "BJ") return { joker: "big", rank: 16, suit: "j" };
    if (token === "SJ") return { joker: "small", rank: 15, suit: "j" };
    var r = token.slice(0, -1);
    return { joker: null, char: r, rank: RANK_VALUE[r] || Number(r), suit: token.slice(-1) };
  }

  function marksOf(card) {
    if (card.joker) return { wild: false, added: false };
    return {
      wild: page.hand.wild_rank != null && card.char === String(page.hand.wild_rank),
      added: page.hand.added_suit != null && card.suit === page.hand.added_suit,
    };
  }

  function cardLabel(token) {
    var card = parse(token);
    if (card.joker) return word("web.joker." + card.joker);
    var text = word("web.card", { rank: word("web.rank." + card.rank), suit: word("web.suit." + card.suit) });
    var marks = marksOf(card);
    if (marks.wild) text = word("web.card_wild", { card: text });
    if (marks.added) text = word("web.card_added", { card: text });
    return text;
  }

  function span(cls, text) {
    var el = document.createElement("span");
    el.className = cls;
    if (text != null) el.textContent = text;
    return el;
  }

  function face(token) {
    var card = parse(token);
    var el = document.createElement("div");
    el.className = "card";
    if (card.joker) {
      el.classList.add("joker", card.joker === "big" ? "red" : "black", card.joker);
      el.appendChild(span("joker-word", word("web.joker_face." + card.joker)));
      el.appendChild(span("joker-star", "\u2605"));
      return el;
    }
    var rank = card.char === "T" ? "10" : card.char;
    var symbol = SUIT_SYMBOL[card.suit];
    el.classList.add(card.suit === "h" || card.suit === "d" ? "red" : "black");
    var index = span("index");
    index.appendChild(span("index-rank", rank));
    index.appendChild(span("index-suit", symbol));
    el.appendChild(index);
    if (card.rank >= 11 && card.rank <= 13) {
      var court = span("court");
      court.appendChild(span("court-rank", rank));
      court.appendChild(span("court-suit", symbol));
      el.appendChild(court);
    } else {
      el.appendChild(span(card.rank === 14 ? "pip ace" : "pip", symbol));
    }
    var marks = marksOf(card);
    if (marks.wild || marks.added) {
      var badges = span("marks");
      if (marks.wild) {
        el.classList.add("wild");
        badges.appendChild(span("mark mark-wild", "\u2605"));
      }
      if (marks.added) {
        el.classList.add("added");
        badges.appendChild(span("mark mark-added", "+"));
      }
      el.appendChild(badges);
    }
    return el;
  }

  /** The element of card ``index``: made once, then moved between places
   * (never rebuilt under a finger that is dragging it). */
  function cardElement(index) {
    var el = page.cardEls[index];
    if (!el) {
      var token = page.hand.cards[index];
      el = face(token);
      el.dataset.card = token;
      el.dataset.index = String(index);
      el.setAttribute("aria-label", cardLabel(token));
      page.cardEls[index] = el;
    }
    var active = page.mode === "arranging";
    if (active) {
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      el.setAttribute("aria-pressed", page.selected === index ? "true" : "false");
    } else {
      el.removeAttribute("role");
      el.removeAttribute("tabindex");
      el.removeAttribute("aria-pressed");
    }
    el.classList.toggle("selected", active && page.selected === index);
    return el;
  }

  /** Put each card element in its place; while a card is being dragged the
   * places are Sortable's, and are drawn again when it is dropped. */
  function renderCards() {
    if (page.dragging) return;
    var discard = discarding();
    PLACES.concat("discard").forEach(function (place) {
      var box = $('.board [data-lane="' + place + '"]');
      var shown = place === "discard" ? discard : !(place === "hand" && discard);
      var cards = shown ? page.lanes[draftPlace(place)].map(cardElement) : [];
      var current = Array.prototype.slice.call(box.children);
      var same = current.length === cards.length && cards.every(function (el, i) { return current[i] === el; });
      if (!same) box.replaceChildren.apply(box, cards);
      var label = place === "hand" ? word("web.unplaced", { count: cards.length })
        : place === "discard" ? word("web.discarded", { count: cards.length })
        : word("lane." + place);
      box.setAttribute("aria-label", label);
      box.classList.toggle("full", place !== "hand" && place !== "discard" && cards.length >= SIZES[place]);
    });
  }

  /** Display order of ``indexes``: by rank (high first, jokers first) or by suit. */
  function sorted(indexes, how) {
    var cards = page.hand.cards;
    return indexes.slice().sort(function (a, b) {
      var x = parse(cards[a]);
      var y = parse(cards[b]);
      var key = how === "suit"
        ? [SUIT_ORDER[x.suit] - SUIT_ORDER[y.suit], y.rank - x.rank]
        : [y.rank - x.rank, SUIT_ORDER[x.suit] - SUIT_ORDER[y.suit]];
      return key[0] || key[1] || a - b;
    });
  }

  // ---------------------------------------------------------------- talking to the server
  // An answer refused: its catalog key, the server's words and the language
  // they are in (the room's, the player's or the browser's, as the server
  // read them).
  function ApiError(code, message, status, language) {
    this.code = code;
    this.message = message || "";
    this.status = status || 0;
    this.language = language || "";
  }

  function api(method, path, body) {
    var headers = {};
    if (page.pass) headers.Authorization = "Bearer " + page.pass;
    var init = { method: method, headers: headers, credentials: "same-origin", cache: "no-store" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(
      function (response) {
        return response.json().then(
          function (data) { return data; },
          function () { return null; }
        ).then(function (data) {
          if (!response.ok) {
            throw new ApiError(
              (data && data.error) || "web.err.network",
              data && data.message,
              response.status,
              data && data.language
            );
          }
          return data;
        });
      },
      function () {
        throw new ApiError("web.err.network", "", 0);
      }
    );
  }

  function errorText(error) {
    if (!(error instanceof ApiError)) return word("web.err.network");
    if (error.code === "web.err.refused" && error.message) return error.message;
    if (Object.prototype.hasOwnProperty.call(page.words, error.code)) return word(error.code);
    return error.message || word("web.err.network");
  }

  // The words' URL names their version (index.html's data-strings, set by
  // the server), so the browser keeps them until they change.
  function fetchWords(lang) {
    var version = document.documentElement.getAttribute("data-strings");
    var url = "strings/" + lang + ".json" + (version ? "?v=" + encodeURIComponent(version) : "");
    return fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : {}; })
      .then(function (words) { return { language: lang, words: words || {} }; });
  }

  function useWords(got) {
    page.words = got.words;
    page.language = got.language;
    document.documentElement.lang = got.language;
  }

  // ---------------------------------------------------------------- changing the draft
  function fullLanes(lanes) {
    return LANES.filter(function (lane) { return lanes[lane].length === SIZES[lane]; });
  }

  /** 13 cards: the move that fills a second lane puts the cards left in the
   * last one (as the chat's keyboard does): nobody drags the last five. A
   * card taken out of that lane again stays out (only a move that fills the
   * second lane fills the last). With 多三张 the player picks the discards. */
  function fillLast(before, next) {
    if (!page.hand || page.hand.cards.length !== KEEP) return;
    if (fullLanes(before).length >= 2 || fullLanes(next).length !== 2) return;
    var last = LANES.filter(function (lane) { return next[lane].length < SIZES[lane]; })[0];
    next[last] = next[last].concat(next.hand);
    next.hand = [];
  }

  function commit(next) {
    page.history.push(copyLanes(page.lanes));
    if (page.history.length > UNDO_DEPTH) page.history.shift();
    var before = page.lanes;
    fillLast(before, next);
    page.lanes = next;
    page.selected = null;
    LANES.forEach(function (lane) {
      if (before[lane].join() !== next[lane].join()) page.labels[lane] = null;
    });
    if (!complete()) page.foul = null;
    page.draftSpecial = null; // until the server says what these lanes make
    render();
    evaluateSoon();
  }

  /** Move card ``index`` to ``to`` at ``position`` (the end when omitted). A
   * full lane swaps: the card at the drop place goes where this one was. */
  function move(index, to, position) {
    var from = placeOf(index);
    if (from === null || page.mode !== "arranging") return;
    // The discarded cards (多三张, the lanes full) are full too: a card
    // dropped there swaps with the one it was dropped on.
    var full = to === "discard" ? discarding() && from !== "hand" : to !== "hand" && from !== to;
    to = draftPlace(to);
    var next = copyLanes(page.lanes);
    var at = next[from].indexOf(index);
    next[from].splice(at, 1);
    var target = next[to];
    var pos = position == null ? target.length : Math.max(0, Math.min(position, target.length));
    if (full && (to === "hand" || target.length >= SIZES[to])) {
      var hit = Math.min(pos, target.length - 1);
      var displaced = target.splice(hit, 1, index)[0];
      next[from].splice(at, 0, displaced);
    } else {
      target.splice(pos, 0, index);
    }
    if (sameLanes(next, page.lanes)) {
      page.selected = null;
      render();
      return;
    }
    haptic("impact", "light");
    commit(next);
  }

  /** Two cards trade places (tap one, then tap the other). */
  function swap(a, b) {
    var pa = placeOf(a);
    var pb = placeOf(b);
    var next = copyLanes(page.lanes);
    var ia = next[pa].indexOf(a);
    var ib = next[pb].indexOf(b);
    next[pa][ia] = b;
    next[pb][ib] = a;
    haptic("impact", "light");
    commit(next);
  }

  function tapCard(index) {
    if (page.mode !== "arranging") return;
    var chosen = page.selected;
    if (chosen === null) {
      page.selected = index;
      telegram(function (w) { if (w.HapticFeedback && supports("6.1")) w.HapticFeedback.selectionChanged(); });
      render();
    } else if (chosen === index) {
      page.selected = null;
      render();
    } else if (placeOf(chosen) === placeOf(index)) {
      page.selected = index;
      render();
    } else {
      swap(chosen, index);
    }
  }

  function tapPlace(place) {
    if (page.mode !== "arranging" || page.selected === null) return;
    if (placeOf(page.selected) === draftPlace(place)) {
      page.selected = null;
      render();
      return;
    }
    move(page.selected, place);
  }

  function applySuggestion(n) {
    var s = page.suggestions && page.suggestions[n];
    if (!s || page.mode !== "arranging") return;
    var used = s.head.concat(s.middle, s.tail);
    var all = page.hand.cards.map(function (_, i) { return i; });
    var rest = sorted(all.filter(function (i) { return used.indexOf(i) < 0; }), page.sort);
    haptic("impact", "medium");
    commit({ hand: rest, head: s.head.slice(), middle: s.middle.slice(), tail: s.tail.slice() });
  }

  function undo() {
    if (!page.history.length || page.mode !== "arranging") return;
    page.lanes = page.history.pop();
    page.selected = null;
    page.labels = { head: null, middle: null, tail: null };
    page.foul = null;
    page.draftSpecial = null;
    render();
    evaluateSoon();
  }

  function reset() {
    if (!placedCount() || page.mode !== "arranging") return;
    var all = page.hand.cards.map(function (_, i) { return i; });
    commit({ hand: sorted(all, page.sort), head: [], middle: [], tail: [] });
  }

  function sortBy(how) {
    page.sort = how;
    page.lanes.hand = sorted(page.lanes.hand, how);
    render();
  }

  // ---------------------------------------------------------------- the rules engine's answers
  function evaluateSoon() {
    clearTimeout(page.evalTimer);
    page.evalTimer = setTimeout(evaluate, EVALUATE_MS);
  }

  function evaluate() {
    var seq = ++page.evalSeq;
    api("POST", "../api/evaluate", draft()).then(
      function (out) {
        if (seq !== page.evalSeq) return;
        var fouled = !page.foul && out.foul;
        page.labels = out.labels || { head: null, middle: null, tail: null };
        page.foul = out.foul || null;
        page.draftSpecial = out.special || null;
        if (fouled) haptic("notification", "error");
        render();
      },
      function (error) {
        if (seq !== page.evalSeq) return;
        toast(errorText(error));
      }
    );
  }

  function suggest() {
    if (page.busy || page.mode !== "arranging") return;
    setBusy("suggest");
    render();
    toast(word("web.suggesting"), true);
    api("POST", "../api/suggest").then(
      function (hand) {
        setBusy(null);
        hideToast();
        onHand(hand);
      },
      function (error) {
        setBusy(null);
        toast(errorText(error));
        render();
      }
    );
  }

  function confirm() {
    if (page.busy || page.mode !== "arranging") return;
    if (!complete()) {
      toast(word("web.err.incomplete"));
      haptic("notification", "error");
      return;
    }
    setBusy("confirm");
    render();
    telegram(function (w) { w.MainButton.showProgress(false); });
    api("POST", "../api/confirm", draft()).then(
      function (hand) {
        setBusy(null);
        haptic("notification", "success");
        onHand(hand, true);
      },
      function (error) {
        setBusy(null);
        haptic("notification", "error");
        toast(errorText(error));
        if (error.code === "web.err.already_done" || error.code === "web.err.not_arranging") poll();
        else render();
      }
    );
  }

  function declare() {
    if (page.busy || page.mode !== "arranging") return;
    setBusy("declare");
    render();
    // 多三张: the special is of the cards the draft keeps; they go with it.
    api("POST", "../api/declare", page.hand.cards.length > KEEP ? draft() : undefined).then(
      function (hand) {
        setBusy(null);
        haptic("notification", "success");
        onHand(hand, true);
      },
      function (error) {
        setBusy(null);
        toast(errorText(error));
        render();
      }
    );
  }

  /** ``what`` is running (confirm, declare, suggest), or nothing (null). */
  function setBusy(what) {
    page.busy = what;
    if (!what) telegram(function (w) { w.MainButton.hideProgress(); });
  }

  /** The page is hidden or closing (or Telegram's client put it away):
   * a draft changed since the stored hand was last seen goes to the table
   * (POST /api/lay), so the private hand in the chat shows it. A keepalive
   * fetch outlives the page (sendBeacon cannot carry the pass's header). */
  function saveDraft() {
    if (!page.hand || !page.pass || page.mode !== "arranging" || page.hand.done || page.busy === "confirm") return;
    if (!unsent()) return;
    var body = draft();
    var key = draftKey();
    page.laid = key;
    try {
      fetch("../api/lay", {
        method: "POST",
        keepalive: true,
        credentials: "same-origin",
        cache: "no-store",
        headers: { Authorization: "Bearer " + page.pass, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }).then(
        function (response) { if (!response.ok && page.laid === key) page.laid = ""; },
        function () { if (page.laid === key) page.laid = ""; }
      );
    } catch (error) {
      page.laid = "";
    }
  }

  // ---------------------------------------------------------------- the server's hand
  /** Take in a hand from the server: the first one, a poll, or the answer
   * to confirm / declare / suggest (``adopt``: its lanes replace the draft). */
  function onHand(hand, adopt) {
    var first = page.hand === null;
    page.hand = hand;
    page.offset = hand.now - Date.now() / 1000;
    if (hand.suggestions && (!page.suggestions || first || adopt)) page.suggestions = hand.suggestions;
    var key = serverKey(hand);
    var follow = first || adopt || hand.done ||
      // Taps on the chat's keyboard, with nothing changed here since: follow them.
      (key !== page.serverLanes && sameLanes(page.lanes, fromServer(page.lastServer)));
    if (follow) {
      page.lanes = fromServer(hand);
      if (first || adopt || hand.done) page.history = [];
      // The server's answer for these very lanes.
      page.labels = hand.labels || { head: null, middle: null, tail: null };
      page.foul = hand.foul || null;
      page.draftSpecial = hand.special || null; // the stored lanes' own
      page.evalSeq++;
    }
    page.serverLanes = key;
    page.lastServer = hand;
    var before = page.mode;
    if (hand.phase !== "arranging") page.mode = "over";
    else page.mode = hand.done ? "done" : "arranging";
    if (page.mode !== before) {
      page.selected = null;
      lockDrag(page.mode !== "arranging");
    }
    render();
    if (page.mode === "over") startShowdown();
  }

  function fromServer(hand) {
    var placed = hand.lanes.head.concat(hand.lanes.middle, hand.lanes.tail);
    var rest = hand.order.filter(function (i) { return placed.indexOf(i) < 0; });
    return {
      hand: sorted(rest, page.sort),
      head: hand.lanes.head.slice(),
      middle: hand.lanes.middle.slice(),
      tail: hand.lanes.tail.slice(),
    };
  }

  function poll() {
    clearTimeout(page.pollTimer);
    api("GET", "../api/hand").then(
      function (hand) {
        onHand(hand);
        if (page.mode !== "over") page.pollTimer = setTimeout(poll, POLL_MS);
      },
      function (error) {
        if (error.status === 401 || error.status === 403 || error.status === 404) {
          page.mode = "over";
          lockDrag(true);
          render();
          // 403: the room dealt again; this round's showdown is still there.
          if (error.status === 403) startShowdown();
          return;
        }
        page.pollTimer = setTimeout(poll, POLL_MS * 2);
      }
    );
  }

  // ---------------------------------------------------------------- drawing
  function render() {
    var hand = page.hand;
    var root = $(".page");
    root.dataset.mode = page.mode;
    root.classList.toggle("sixteen", hand.cards.length > KEEP);
    root.classList.toggle("has-selection", page.selected !== null);
    var title = word("web.title", { round: hand.round });
    document.title = title;
    $("[data-title]").textContent = title;
    $$("[data-word]").forEach(function (el) { el.textContent = word(el.dataset.word); });

    renderCards();
    LANES.forEach(function (lane) {
      $('[data-count="' + lane + '"]').textContent = page.lanes[lane].length + "/" + SIZES[lane];
      var label = $('[data-lane-label="' + lane + '"]');
      label.textContent = page.labels[lane] || "";
      label.classList.toggle("fouled", !!page.foul);
    });
    var extra = hand.cards.length - KEEP;
    var discard = discarding();
    var left = discard ? 0 : page.lanes.hand.length;
    $("[data-hand-title]").textContent = word("web.unplaced", { count: left });
    // Every card placed: the row shrinks to a slim place to drop cards back.
    var handBox = $('[data-lane-box="hand"]');
    handBox.hidden = page.mode !== "arranging" && left === 0;
    handBox.classList.toggle("empty", left === 0);
    $("[data-discard-note]").textContent = extra > 0 ? word("web.hint_extra", { count: extra }) : "";
    $('[data-lane-box="discard"]').hidden = !discard;
    $("[data-discard-title]").textContent = word("web.discarded", { count: page.lanes.hand.length });
    $("[data-hint]").textContent = page.mode === "arranging" && !complete() ? word("web.hint") : "";

    var slot = $("[data-foul-slot]");
    var shown = $("[data-foul]", slot);
    if (page.foul && page.mode === "arranging") {
      if (!shown) {
        shown = document.createElement("div");
        shown.className = "foul";
        shown.setAttribute("data-foul", "");
        slot.appendChild(shown);
      }
      shown.textContent = word("web.foul", { lanes: page.foul });
    } else if (shown) {
      slot.removeChild(shown);
    }

    renderNotes();
    renderSpecial();
    renderSuggestions();
    renderStatus();
    renderClock();
    renderTools();
    renderShowdown();
    syncTelegram();
  }

  function renderNotes() {
    var notes = [];
    if (page.hand.wild_rank != null) {
      var w = String(page.hand.wild_rank);
      notes.push(word("web.wild_note", { rank: w === "T" ? "10" : w }));
    }
    if (page.hand.added_suit != null) notes.push(word("web.added_note", { suit: SUIT_SYMBOL[page.hand.added_suit] || "" }));
    $("[data-notes]").textContent = notes.join("  ");
  }

  /** The special to offer: the dealt hand's; with 16 cards, that of the 13
   * the draft keeps, once they are placed. */
  function offeredSpecial() {
    return page.hand.cards.length > KEEP ? (complete() ? page.draftSpecial : null) : page.hand.special;
  }

  function renderSpecial() {
    var box = $("[data-special]");
    var special = offeredSpecial();
    var show = !!special && page.mode === "arranging";
    box.hidden = !show;
    if (show) $("[data-special-text]").textContent = word("web.special_offer", { special: special.name, points: special.points });
  }

  function formatPoints(score) {
    var n = Number(score) || 0;
    var text = Math.abs(n).toFixed(2); // as the review's points given up: they add up
    return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + text;
  }

  function renderSuggestions() {
    var box = $("[data-suggestions]");
    var list = $("[data-suggestion-list]");
    var items = page.suggestions || [];
    box.hidden = !items.length || page.mode !== "arranging";
    var nodes = items.slice(0, 3).map(function (s, n) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "suggestion";
      b.dataset.suggestion = String(n);
      var active = page.lanes.head.join() === s.head.join() && page.lanes.middle.join() === s.middle.join() &&
        page.lanes.tail.join() === s.tail.join();
      b.setAttribute("aria-pressed", active ? "true" : "false");
      var top = span("suggestion-top");
      top.appendChild(span("suggestion-name", word("web.suggestion", { n: n + 1 })));
      top.appendChild(span("suggestion-points", word("web.suggestion_points", { points: formatPoints(s.score) })));
      b.appendChild(top);
      var lanes = span("suggestion-lanes");
      LANES.forEach(function (lane) {
        var group = span("mini-lane");
        s[lane].forEach(function (i) {
          var token = page.hand.cards[i];
          var card = parse(token);
          var mini = span("mini " + (card.suit === "h" || card.suit === "d" || card.joker === "big" ? "red" : "black"));
          mini.textContent = card.joker ? word("web.joker_face." + card.joker) : (card.char === "T" ? "10" : card.char) + SUIT_SYMBOL[card.suit];
          group.appendChild(mini);
        });
        lanes.appendChild(group);
      });
      b.appendChild(lanes);
      return b;
    });
    list.replaceChildren.apply(list, nodes);
  }

  function renderStatus() {
    var box = $("[data-status]");
    var text = "";
    var hand = page.hand;
    if (page.mode === "done") {
      var declared = hand.declared && hand.special;
      text = declared ? word("web.declared", { special: hand.special.name }) : word("web.confirmed");
    } else if (page.mode === "over" && (!page.showing || page.showdownFailed)) {
      text = word("web.round_over");
    }
    box.hidden = !text;
    box.textContent = text;
    var ready = $("[data-ready]");
    ready.textContent = word("web.ready", { done: hand.ready.done, seated: hand.ready.seated });
    ready.hidden = !!page.showdown;
  }

  function renderClock() {
    var el = $("[data-deadline]");
    var deadline = page.hand && page.hand.deadline;
    if (!deadline || page.mode === "over") {
      el.textContent = "";
      return;
    }
    var left = Math.max(0, Math.floor(deadline - (Date.now() / 1000 + page.offset)));
    var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    el.textContent = left > 0 ? word("web.deadline", { time: text }) : word("web.time_up");
    el.classList.toggle("late", left <= 30);
  }

  function renderTools() {
    var arranging = page.mode === "arranging";
    var enable = {
      "sort-rank": arranging,
      "sort-suit": arranging,
      undo: arranging && page.history.length > 0,
      reset: arranging && placedCount() > 0,
      suggest: arranging,
      declare: arranging,
      confirm: arranging && complete() && !page.foul,
    };
    $$("[data-action]").forEach(function (b) {
      var on = enable[b.dataset.action];
      b.disabled = !!page.busy || !on;
      b.setAttribute("aria-busy", page.busy === b.dataset.action ? "true" : "false");
    });
    $('[data-action="sort-rank"]').setAttribute("aria-pressed", page.sort === "rank" ? "true" : "false");
    $('[data-action="sort-suit"]').setAttribute("aria-pressed", page.sort === "suit" ? "true" : "false");
    $('[data-action="confirm"]').textContent = confirmLabel();
    // Inside Telegram the confirm is Telegram's own (MainButton): the page's
    // bar would be a second, identical button.
    $(".confirm-bar").hidden = mainButton();
  }

  /** What confirm says: the cards still to place, or the foul (a fouled
   * split is never accepted), before it is pressed. */
  function confirmLabel() {
    var missing = KEEP - placedCount();
    if (missing > 0) return word("web.confirm_wait", { count: missing });
    return page.foul ? word("web.confirm_foul") : word("web.confirm");
  }

  /** Opened by Telegram (launch data: a browser gets Telegram's script
   * too, with none): Telegram shows the confirm at the bottom. */
  function mainButton() {
    return !!telegram(function (w) { return !!w.initData && !!w.MainButton; });
  }

  /** MainButton, closing confirmation: only when they change. */
  function syncTelegram() {
    if (!tg) return;
    var missing = KEEP - placedCount();
    var state = page.mode !== "arranging" ? "hidden" : [
      confirmLabel(),
      missing === 0 && !page.foul && !page.busy,
    ].join("|");
    if (state !== page.main) {
      page.main = state;
      telegram(function (w) {
        var button = w.MainButton;
        if (state === "hidden") {
          button.hideProgress();
          button.hide();
          return;
        }
        button.setText(confirmLabel());
        if (missing === 0 && !page.foul && !page.busy) button.enable();
        else button.disable();
        button.show();
      });
    }
    // Telegram asks before closing only while closing would lose something.
    var closing = page.mode === "arranging" && unsent();
    if (closing !== page.closing && supports("6.2")) {
      page.closing = closing;
      telegram(function (w) {
        if (closing) w.enableClosingConfirmation();
        else w.disableClosingConfirmation();
      });
    }
  }

  // ---------------------------------------------------------------- the showdown and the review
  /** Once the round is shown: ask for its showdown (GET /api/showdown) until
   * every lane is shown, the round is paid and the review is in (the table
   * computes it as it pays the round). */
  function startShowdown() {
    if (page.showing) return;
    page.showing = true;
    pollShowdown();
  }

  function pollShowdown() {
    clearTimeout(page.showTimer);
    api("GET", "../api/showdown").then(
      function (showdown) {
        var first = page.showdown === null;
        page.showdown = showdown;
        page.showdownFailed = false;
        if (first) haptic("impact", "medium");
        render();
        var review = showdown.review || {};
        if (!showdown.complete || review.status === "pending") {
          page.showTimer = setTimeout(pollShowdown, SHOWDOWN_MS);
        }
      },
      function (error) {
        if (error.status === 0 || error.status === 429 || error.status >= 500) {
          page.showTimer = setTimeout(pollShowdown, POLL_MS);
          return;
        }
        // A round never shown (the room closed), a pass that ended: the status says so.
        page.showdownFailed = true;
        render();
      }
    );
  }

  function signed(n) {
    var v = Math.round(Number(n) || 0);
    return (v > 0 ? "+" : v < 0 ? "\u2212" : "") + Math.abs(v);
  }

  function paragraph(cls, text) {
    var el = document.createElement("p");
    el.className = cls;
    el.textContent = text;
    return el;
  }

  function shownCard(token) {
    var el = face(token);
    el.dataset.card = token;
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardLabel(token));
    return el;
  }

  function faceDown() {
    var el = document.createElement("div");
    el.className = "card back";
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", word("web.face_down"));
    return el;
  }

  /** One lane: its name, its cards (face down until the showdown shows them),
   * its hand and, against another seat, who took it. */
  function laneRow(lane, tokens, label, result) {
    var row = document.createElement("div");
    row.className = "sd-lane";
    row.appendChild(span("sd-lane-name", word("lane." + lane)));
    var cards = document.createElement("div");
    cards.className = "sd-cards";
    cards.dataset.lane = lane;
    cards.setAttribute("role", "group");
    cards.setAttribute("aria-label", word("lane." + lane));
    var list = [];
    if (tokens) list = tokens.map(shownCard);
    else for (var i = 0; i < SIZES[lane]; i++) list.push(faceDown());
    cards.replaceChildren.apply(cards, list);
    row.appendChild(cards);
    var info = span("sd-lane-info");
    if (label) info.appendChild(span("sd-label", label));
    if (result) info.appendChild(result);
    row.appendChild(info);
    return row;
  }

  function laneResult(x) {
    if (x > 0) return span("sd-result up", word("web.lane_won"));
    if (x < 0) return span("sd-result down", word("web.lane_lost"));
    return span("sd-result tie", word("web.lane_tied"));
  }

  function versusText(vs) {
    var text = vs.score > 0 ? word("web.vs_win", { points: vs.score })
      : vs.score < 0 ? word("web.vs_lose", { points: -vs.score })
      : word("web.vs_draw");
    if (vs.scoop === "me") text += " \u00b7 " + word("web.scoop_me");
    else if (vs.scoop === "them") text += " \u00b7 " + word("web.scoop_them");
    return text;
  }

  function partsLine(parts) {
    var line = paragraph("seat-parts", null);
    parts.forEach(function (part, i) {
      if (i) line.appendChild(document.createTextNode(" \u00b7 "));
      var el = span("seat-part " + (part.points > 0 ? "up" : part.points < 0 ? "down" : ""), part.text);
      el.dataset.points = String(part.points);
      line.appendChild(el);
    });
    return line;
  }

  function seatBox(seat) {
    var box = document.createElement("div");
    box.className = seat.me ? "seat me" : "seat";
    box.dataset.seat = seat.key;
    var top = span("seat-top");
    top.appendChild(span("seat-name", seat.name));
    if (seat.me) top.appendChild(span("tag tag-me", word("web.you")));
    if (seat.banker) top.appendChild(span("tag", word("web.banker")));
    if (seat.special) top.appendChild(span("tag tag-special", word("web.special_shown", { special: seat.special })));
    var vs = seat.versus;
    if (vs) top.appendChild(span("seat-versus " + (vs.score > 0 ? "up" : vs.score < 0 ? "down" : ""), versusText(vs)));
    if (seat.total != null) {
      var total = span("seat-total " + (seat.total > 0 ? "up" : seat.total < 0 ? "down" : ""),
        word("web.seat_total", { points: signed(seat.total) }));
      total.dataset.total = String(seat.total);
      top.appendChild(total);
    }
    box.appendChild(top);
    // What the points against this opponent (or my escape payments) are
    // made of, from my side: the parts add up to the number above.
    var parts = vs && vs.parts && vs.parts.length ? vs.parts : seat.escape || [];
    if (parts.length) box.appendChild(partsLine(parts));
    LANES.forEach(function (lane) {
      var result = vs && vs.lanes ? laneResult(vs.lanes[lane]) : null;
      box.appendChild(laneRow(lane, seat.lanes[lane], seat.labels[lane], result));
    });
    return box;
  }

  function splitBox(title, split, points, which) {
    var box = document.createElement("div");
    box.className = "split";
    box.dataset.split = which;
    var top = span("split-top");
    top.appendChild(span("split-name", title));
    top.appendChild(span("split-points", word("web.suggestion_points", { points: formatPoints(points) })));
    box.appendChild(top);
    if (split.special) box.appendChild(span("tag tag-special", word("web.special_shown", { special: split.special })));
    LANES.forEach(function (lane) {
      box.appendChild(laneRow(lane, split.lanes[lane], split.labels[lane], null));
    });
    return box;
  }

  function reviewNodes(review) {
    if (review.status === "pending") {
      var wait = document.createElement("div");
      wait.className = "review-wait";
      wait.setAttribute("role", "progressbar");
      wait.appendChild(span("mini-spinner"));
      wait.appendChild(span("review-wait-text", word("web.review_pending")));
      return [wait];
    }
    if (review.status !== "ready") return [paragraph("review-none", word("web.review_none"))];
    var verdict = paragraph(review.best_is_mine ? "verdict best" : "verdict",
      review.best_is_mine ? word("web.review_best_is_mine")
        : word("web.given_up", { points: Number(review.given_up).toFixed(2) }));
    verdict.dataset.givenUp = String(review.given_up);
    var splits = document.createElement("div");
    splits.className = "splits";
    splits.appendChild(splitBox(word("web.review_mine"), review.mine, review.mine_ev, "mine"));
    splits.appendChild(splitBox(word("web.review_best"), review.best, review.best_ev, "best"));
    var nodes = [verdict, splits];
    if (review.auto) nodes.push(paragraph("review-auto", word("web.review_auto")));
    nodes.push(paragraph("review-actual", word("web.review_actual", {
      mine: signed(review.actual),
      best: signed(review.best_actual),
    })));
    nodes.push(paragraph("review-note", word("web.review_note")));
    return nodes;
  }

  /** A moment in words, as the group's showdown says it ("卡萝 打枪 阿丽 ×2"). */
  function momentText(m) {
    if (m.kind === "special") return word("moment.special", { name: m.by, special: m.special });
    var text = m.kind === "home_run" ? word("moment.home_run_by", { name: m.by })
      : word("moment.scoop", { by: m.by, of: m.of });
    return m.times > 1 ? word("moment.times", { text: text, times: m.times }) : text;
  }

  /** The moments (打枪, 全垒打, 报道) of the steps shown, as stamps: each new
   * one lands with a thump (and a haptic tap), those seen before just stay. */
  function renderMoments(moments) {
    var box = $("[data-moments]");
    box.hidden = !moments.length;
    var fresh = false;
    box.replaceChildren.apply(box, moments.map(function (m, n) {
      var stamp = span("moment moment-" + m.kind);
      stamp.dataset.moment = m.kind;
      stamp.style.setProperty("--tilt", (n % 2 ? 2 : -3) + "deg");
      if (m.kind === "home_run") stamp.appendChild(span("moment-title", word("moment.home_run")));
      stamp.appendChild(span("moment-text", momentText(m)));
      var key = JSON.stringify(m);
      if (!page.momentsSeen[key]) {
        page.momentsSeen[key] = true;
        stamp.classList.add("landing");
        fresh = true;
      }
      return stamp;
    }));
    if (fresh) haptic("impact", "heavy"); // a stamp lands: a thump, for the winner and the scooped alike
  }

  /** Drawn again only when the server's answer changed (it is asked every
   * SHOWDOWN_MS while the showdown goes on). */
  function renderShowdown() {
    var showdown = page.showdown;
    $(".page").classList.toggle("showing", !!showdown);
    $("[data-showdown]").hidden = !showdown;
    $("[data-review]").hidden = !showdown;
    if (!showdown) return;
    var key = JSON.stringify([showdown.seats, showdown.review, showdown.complete, showdown.home_run, showdown.moments, page.language]);
    if (key === page.showdownDrawn) return;
    page.showdownDrawn = key;
    var box = $("[data-showdown]");
    box.dataset.complete = showdown.complete ? "true" : "false";
    $("[data-showdown-title]").textContent = showdown.complete ? word("web.result") : word("web.showing");
    var seats = $("[data-seats]");
    seats.replaceChildren.apply(seats, showdown.seats.map(seatBox));
    renderMoments(showdown.moments || []);
    var homeRun = $("[data-home-run]");
    homeRun.hidden = !showdown.home_run;
    homeRun.textContent = showdown.home_run ? word("web.home_run", { name: showdown.home_run }) : "";
    var review = showdown.review || { status: "none" };
    var panel = $("[data-review]");
    panel.dataset.status = review.status;
    var body = $("[data-review-body]");
    body.replaceChildren.apply(body, reviewNodes(review));
  }

  // ---------------------------------------------------------------- Telegram's look
  var THEME = {
    bg_color: "--tg-theme-bg-color",
    text_color: "--tg-theme-text-color",
    hint_color: "--tg-theme-hint-color",
    link_color: "--tg-theme-link-color",
    button_color: "--tg-theme-button-color",
    button_text_color: "--tg-theme-button-text-color",
    secondary_bg_color: "--tg-theme-secondary-bg-color",
    section_bg_color: "--tg-theme-section-bg-color",
    accent_text_color: "--tg-theme-accent-text-color",
    destructive_text_color: "--tg-theme-destructive-text-color",
    subtitle_text_color: "--tg-theme-subtitle-text-color",
  };

  function applyTheme() {
    var params = (tg && tg.themeParams) || {};
    var style = document.documentElement.style;
    Object.keys(THEME).forEach(function (key) {
      var value = params[key];
      if (typeof value === "string" && /^#[0-9a-fA-F]{3,8}$/.test(value)) style.setProperty(THEME[key], value);
    });
    if (tg && tg.colorScheme) document.documentElement.dataset.scheme = tg.colorScheme;
  }

  function applySafeArea() {
    if (!tg) return; // Discord's insets come by CSS (app.css); a plain tab has none
    var outer = (tg && tg.safeAreaInset) || {};
    var inner = (tg && tg.contentSafeAreaInset) || {};
    var style = document.documentElement.style;
    ["top", "bottom", "left", "right"].forEach(function (side) {
      var px = (Number(outer[side]) || 0) + (Number(inner[side]) || 0);
      style.setProperty("--safe-" + side, px + "px");
    });
  }

  // ---------------------------------------------------------------- dragging
  function mountDrag() {
    if (!window.Sortable) return;
    PLACES.concat("discard").forEach(function (place) {
      var box = $('.board [data-lane="' + place + '"]');
      page.sortables.push(window.Sortable.create(box, {
        group: "cards",
        draggable: ".card",
        animation: 120,
        forceFallback: true, // one code path for mouse and touch, inside the Telegram web view too
        fallbackOnBody: true,
        fallbackTolerance: 4,
        emptyInsertThreshold: 24,
        ghostClass: "ghost",
        chosenClass: "chosen",
        dragClass: "dragging",
        onStart: function () {
          page.dragging = true;
          document.documentElement.classList.add("is-dragging");
          if (supports("7.7")) telegram(function (w) { w.disableVerticalSwipes(); });
        },
        onEnd: function (evt) {
          page.dragging = false;
          if (supports("7.7")) telegram(function (w) { w.enableVerticalSwipes(); });
          var index = Number(evt.item.dataset.index);
          var to = evt.to.dataset.lane;
          var position = evt.newDraggableIndex != null ? evt.newDraggableIndex : evt.newIndex;
          // Sortable moved the element; the draft decides (caps, swaps), then
          // redraws. Until then the drag is not over: the class stays, so what
          // reads the lanes (a test, a style) never sees Sortable's interim.
          setTimeout(function () {
            try {
              move(index, to, position);
            } finally {
              document.documentElement.classList.remove("is-dragging");
            }
          }, 0);
        },
      }));
    });
  }

  function lockDrag(locked) {
    page.sortables.forEach(function (s) { s.option("disabled", locked); });
  }

  // ---------------------------------------------------------------- input
  function bind() {
    document.addEventListener("click", function (event) {
      var target = event.target;
      if (!(target instanceof Element)) return;
      var action = target.closest("[data-action]");
      if (action) {
        if (action.disabled) return;
        var name = action.dataset.action;
        if (name === "confirm") confirm();
        else if (name === "declare") declare();
        else if (name === "suggest") suggest();
        else if (name === "undo") undo();
        else if (name === "reset") reset();
        else if (name === "sort-rank") sortBy("rank");
        else if (name === "sort-suit") sortBy("suit");
        return;
      }
      var suggestion = target.closest("[data-suggestion]");
      if (suggestion) {
        applySuggestion(Number(suggestion.dataset.suggestion));
        return;
      }
      var card = target.closest(".board [data-card]");
      if (card) {
        tapCard(Number(card.dataset.index));
        return;
      }
      var box = target.closest("[data-lane-box]");
      if (box) tapPlace(box.dataset.laneBox);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" && event.key !== " ") return;
      var target = event.target;
      if (!(target instanceof Element)) return;
      if (target.matches(".board [data-card]")) {
        event.preventDefault();
        tapCard(Number(target.dataset.index));
      } else if (target.matches(".board [data-lane]")) {
        event.preventDefault();
        tapPlace(target.dataset.lane);
      }
    });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "hidden") saveDraft();
      else if (page.hand && page.mode !== "error" && page.mode !== "over") poll();
    });
    window.addEventListener("pagehide", saveDraft);
    if (tg) {
      telegram(function (w) { w.MainButton.onClick(confirm); });
      telegram(function (w) { w.onEvent("themeChanged", applyTheme); });
      telegram(function (w) { w.onEvent("safeAreaChanged", applySafeArea); });
      telegram(function (w) { w.onEvent("contentSafeAreaChanged", applySafeArea); });
      telegram(function (w) { w.onEvent("deactivated", saveDraft); });
    }
  }

  // ---------------------------------------------------------------- messages
  function toast(text, sticky) {
    var box = $("[data-message]");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(page.toastTimer);
    if (!sticky) page.toastTimer = setTimeout(hideToast, 4000);
  }

  function hideToast() {
    $("[data-message]").hidden = true;
  }

  function fatal(error) {
    page.mode = "error";
    $(".page").dataset.mode = "error";
    var box = $("[data-fatal]");
    box.textContent = errorText(error);
    box.hidden = false;
    telegram(function (w) { w.MainButton.hide(); });
  }

  // ---------------------------------------------------------------- start
  function launch() {
    if (host.kind === "discord") {
      return host.discordSession(function (path, body) { return api("POST", path, body); })
        .then(function (out) {
          page.pass = out.pass;
          return out.hand;
        }, function (error) {
          // The server's refusal says why; Discord's (the player declined
          // authorize, the SDK failed) is the login that did not happen.
          if (error instanceof ApiError) throw error;
          throw new ApiError("web.err.activity_login", "", 0);
        });
    }
    var initData = tg && typeof tg.initData === "string" ? tg.initData : "";
    if (initData) {
      var query = new URLSearchParams(location.search);
      var round = parseInt(query.get("round") || "", 10);
      return api("POST", "../api/session", {
        init_data: initData,
        room: query.get("room") || "",
        round: isNaN(round) ? 0 : round,
      }).then(function (out) {
        page.pass = out.pass;
        return out.hand;
      });
    }
    var fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
    page.pass = fragment.get("pass");
    if (!page.pass) return Promise.reject(new ApiError("web.err.pass", "", 401));
    return api("GET", "../api/hand");
  }

  function start() {
    applyTheme();
    applySafeArea();
    telegram(function (w) { w.ready(); });
    telegram(function (w) { w.expand(); });
    bind();
    // The words are asked for while the session is: in the language the
    // server read from the browser's Accept-Language (index.html's lang),
    // most often the room's. The hand names the room's, a refusal the
    // language its words are in; a wrong guess asks again.
    var guess = page.language;
    var early = fetchWords(guess).catch(function () { return null; });
    function loadWords(lang) {
      return early
        .then(function (got) { return got && got.language === lang ? got : fetchWords(lang); })
        .then(useWords);
    }
    launch().then(
      function (hand) {
        return loadWords(hand.language).then(function () {
          mountDrag();
          onHand(hand);
          setInterval(renderClock, 500);
          page.pollTimer = setTimeout(poll, POLL_MS);
        });
      },
      function (error) {
        var language = (error instanceof ApiError && error.language) || guess;
        return loadWords(language).then(function () { fatal(error); });
      }
    ).catch(function (error) {
      fatal(error);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
