// The boot of every page (index.html, learn.html, calc.html, embed.html): a classic script in
// the head they share (scripts/page_head.html), so it runs before PyScript. It
//  - keeps window.sxmjBoot: the stage (download → start → prepare → ready), the percent, when
//    each runtime file arrived, a timed log and the error; the interpreter module
//    (static/boot/pyodide-snapshot.mjs) adds what became of the memory snapshot (snapshot,
//    device) and the two steps below (keep, settle);
//  - follows the runtime files arriving, PyScript's py:progress and py:ready events, and the
//    ready marker body[data-sxmj-ready="1"] that Python sets last of all;
//  - shows a failure (a Python error banner, a script that won't load, an uncaught error) in
//    #loading-error, with the error in #loading-error-detail and a #loading-retry button;
//  - sets html[data-boot] to "slow" (90 s without the ready marker), "error" or "ready".
// What a page wants besides, it says itself:
//  - #loading (index.html): the progress overlay, its texts the boot_* strings of
//    sxmj/ui/i18n.py, which the build puts in the JSON block #sxmj-boot-text; it also offers
//    the retry when the boot is slow, and goes once the page is ready;
//  - html[data-lang]: the language comes from ?lang=zh|en (default zh) before the first paint:
//    the static text of both languages is in the page, html[data-lang] shows one; the
//    [data-ui="lang"] links lead to the same page in the other language;
//  - html[data-sw]: once the ready page is painted and idle, on a built site (meta sxmj-build
//    not "dev"), lets the interpreter module put what the page downloaded into the site's cache
//    (sxmjBoot.keep) and registers the service worker, so every page shares one cached runtime
//    and its install downloads nothing twice; a dev page (`make play`) drops one a built site
//    left at the same address, so edited files stay fresh. Then, on every page, it lets the
//    interpreter module finish in the background (sxmjBoot.settle: the whole standard library,
//    this device's memory snapshot);
//  - window.sxmjBoot.storage: what this page may keep, asked once before anything else does:
//    `frame` ("top", "same-site" or "third-party": a frame of another site's page),
//    `local` and `session` (localStorage, sessionStorage: "ok", "refused" when using it throws,
//    "absent" when the browser has none), and `caches` (a promise of the same three words).
//    A third-party frame (an embed, the table in an article) is partitioned by every browser
//    and refused by some (Safari by default, any profile that blocks third-party cookies):
//    a refusal is an expected state, read here once, and never an error. A third-party frame
//    never registers the service worker nor keeps the runtime in the site's cache;
//  - where the page may connect: a second Content-Security-Policy (the head's says what may
//    run, scripts/build_site.py), connect-src, before anything connects: the site, the
//    friends room's brokers (the address's ?broker=, the host's own setting, else PeerJS's
//    public one); sxmjBoot.connect lists them. A broker set in Settings later applies from
//    the next load of the page;
//  - html[data-embed] in a frame: sxmjBoot.inView, a promise that resolves once the frame is
//    on screen; the interpreter module waits for it before it starts Python (about 30 MB and
//    a core for 2 s a frame): a tutorial of 12 embeds starts the ones its reader scrolls to,
//    not twelve at once (loading="lazy" only holds back frames far below the view);
//  - html[data-embed]: posts the content's height to the parent page,
//    postMessage({type: "sxmj-embed-size", height}), so a 3-line snippet can size the iframe.
(function () {
  "use strict";
  var root = document.documentElement;
  var STAGES = ["download", "start", "prepare", "ready"];
  var PERCENT = { download: 4, start: 45, prepare: 85, ready: 100 };
  // Share of the download stage (4% -> 45%) each runtime file is worth once fetched
  // ("python_stdlib.zip": the standard library, the build's compiled python_stdlib-<key>.zip;
  // "sources": every sxmj source, sxmj-<key>.json).
  var WEIGHTS = {
    "pyodide.asm.wasm": 22, "python_stdlib.zip": 8, "pyodide.asm.mjs": 4, "sources": 2,
    "pyodide.mjs": 1, "pyodide-lock.json": 1, "core.js": 1, "pyscript.toml": 1, "main.py": 1
  };
  var NEEDED = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"];
  var BUILD = (document.querySelector('meta[name="sxmj-build"]') || {}).content || "dev";
  var TIMEOUT_MS = 90000;
  var SW_WAIT_MS = 120000;  // at most, for the worker's install (a slow network) before going on
  // The texts it shows, boot_<name> in sxmj/ui/i18n.py: scripts/build_site.py reads this list
  // and fails when one is missing there.
  var TEXTS = ["download", "start", "prepare", "ready", "failed", "error", "slow"];
  var TEXT = {};
  try {
    TEXT = JSON.parse(document.getElementById("sxmj-boot-text").textContent);
  } catch (e) { /* a page without its shared head: the overlay shows the names */ }
  var boot = window.sxmjBoot = {
    stage: "download", percent: PERCENT.download, log: [], fetched: {}, error: null, slow: false
  };
  var timer = 0, creep = 0, observers = [];

  boot.storage = storageState();
  boot.connect = connectPolicy();
  boot.inView = inView();

  // connect-src (see the header): PeerJS asks its broker over https (or http) and a WebSocket
  function connectPolicy() {
    var allowed = ["'self'", "data:", "blob:"];
    function allow(host, secure) {  // a broker: its pages and its WebSocket
      // (a host name and port only: nothing a link could add to the policy)
      if (!/^[a-z0-9.-]+(:\d+)?$/i.test(host)) return;
      var schemes = secure ? ["https:", "wss:"] : ["http:", "ws:"];
      allowed.push(schemes[0] + "//" + host, schemes[1] + "//" + host);
    }
    var brokers = [new URLSearchParams(location.search).get("broker") || ""];
    try {
      brokers.push(JSON.parse(localStorage.getItem("sxmj.settings") || "{}").broker || "");
    } catch (e) { /* no storage, or a damaged setting: the address's alone */ }
    brokers.forEach(function (broker) {
      try {
        var u = new URL(String(broker));
        if (/^(https?|wss?):$/.test(u.protocol)) allow(u.host, /^(https|wss):$/.test(u.protocol));
      } catch (e) { /* not an address: nothing to allow */ }
    });
    allow("0.peerjs.com", true);  // PeerJS's public broker: an invite that names none
    var meta = document.createElement("meta");
    meta.httpEquiv = "Content-Security-Policy";
    meta.content = "connect-src " + allowed.join(" ");
    (document.head || root).appendChild(meta);
    return allowed;
  }

  // An embed's frame starts Python once it is on screen (see the header). An observer with no
  // root watches the top page's viewport, across origins too (where no margin applies).
  function inView() {
    if (!root.hasAttribute("data-embed") || window.top === window ||
        typeof IntersectionObserver !== "function") return Promise.resolve(true);
    return new Promise(function (resolve) {
      boot.held = true;
      function watch() {
        var seen = new IntersectionObserver(function (entries) {
          if (!entries.some(function (e) { return e.isIntersecting; })) return;
          seen.disconnect();
          boot.held = false;
          note("in-view");
          resolve(true);
        });
        seen.observe(document.documentElement);
      }
      if (document.documentElement) watch();
    });
  }

  // What this page may keep (see the header): read once, so that no later caller has to
  // treat a refused storage call as an exception.
  function storageState() {
    var frame = "top";
    try {
      if (window.top !== window) {
        // reading the top page's origin throws when it is another site's
        frame = window.top.location.origin === location.origin ? "same-site" : "third-party";
      }
    } catch (e) { frame = "third-party"; }
    function web(name) {
      var store;
      try { store = window[name]; } catch (e) { return "refused"; }
      if (!store) return "absent";
      try {
        store.setItem("sxmj.probe", "1");
        store.removeItem("sxmj.probe");
        return "ok";
      } catch (e) {
        // full is not refused: a quota error still leaves what is stored readable
        return e && e.name === "QuotaExceededError" ? "ok" : "refused";
      }
    }
    var caches;
    try {
      caches = !window.caches ? Promise.resolve("absent")
        : window.caches.has("sxmj-probe").then(function () { return "ok"; },
          function () { return "refused"; });
    } catch (e) { caches = Promise.resolve("refused"); }
    return { frame: frame, local: web("localStorage"), session: web("sessionStorage"),
             caches: caches };
  }

  function now() { return Math.round(performance.now()); }
  function note(event, detail) { boot.log.push({ event: event, detail: detail || "", t: now() }); }
  boot.note = note;
  boot.build = BUILD;
  function el(id) { return document.getElementById(id); }
  function text(name) { return TEXT[name] || [name, name]; }

  if (root.hasAttribute("data-lang")) {
    var lang = new URLSearchParams(location.search).get("lang") === "en" ? "en" : "zh";
    root.setAttribute("data-lang", lang);
    root.lang = lang === "zh" ? "zh-Hans" : "en";
  }

  function render() {
    var failed = boot.error !== null;
    var state = failed ? "error" : boot.stage === "ready" ? "ready" : boot.slow ? "slow" : "";
    if (state) root.setAttribute("data-boot", state);
    // before DOMContentLoaded the page may be only partly parsed: watchDom() renders then
    if (!boot.domReady) return;
    var overlay = el("loading");
    if (overlay) renderOverlay(overlay, failed);
    var box = el("loading-error");
    if (!box) return;
    box.hidden = !(failed || (overlay && boot.slow));
    var pre = el("loading-error-detail");
    if (pre) {
      pre.textContent = boot.error || "";
      pre.hidden = !boot.error;
      pre.scrollTop = pre.scrollHeight;  // the last line of a traceback says what went wrong
    }
  }

  function renderOverlay(overlay, failed) {
    overlay.setAttribute("data-stage", failed ? "error" : boot.stage);
    overlay.classList.toggle("is-failed", failed);
    var t = failed ? text("failed") : text(boot.stage);
    el("loading-zh").textContent = t[0];
    el("loading-en").textContent = t[1];
    el("loading-bar").style.width = boot.percent.toFixed(1) + "%";
    el("loading-progress").setAttribute("aria-valuenow", String(Math.round(boot.percent)));
    var at = STAGES.indexOf(boot.stage);
    var steps = overlay.querySelectorAll("[data-step]");
    for (var i = 0; i < steps.length; i++) {
      var k = STAGES.indexOf(steps[i].getAttribute("data-step"));
      steps[i].setAttribute("data-state", k < at ? "done" : k === at ? "active" : "pending");
    }
    if (failed || boot.slow) {
      var why = failed ? text("error") : text("slow");
      el("loading-error-zh").textContent = why[0];
      el("loading-error-en").textContent = why[1];
    }
  }

  function setPercent(p) {
    boot.percent = Math.min(100, Math.max(boot.percent, p));
    render();
  }

  function enter(stage) {
    if (boot.error !== null) return;
    if (STAGES.indexOf(stage) <= STAGES.indexOf(boot.stage)) return;
    boot.stage = stage;
    note("stage", stage);
    setPercent(PERCENT[stage]);
  }

  // The bar creeps toward the next stage, so a long interpreter start never looks frozen.
  function tick() {
    var next = STAGES[STAGES.indexOf(boot.stage) + 1];
    if (!next || boot.error !== null) return;
    var target = PERCENT[next] - 3;
    if (boot.percent < target) setPercent(boot.percent + (target - boot.percent) * 0.03);
  }

  function fail(detail) {
    if (boot.error !== null || boot.stage === "ready") return;
    boot.error = String(detail || "unknown error").slice(-4000);
    note("error", boot.error);
    clearInterval(creep);
    clearTimeout(timer);
    render();
    var retry = el("loading-retry");
    // the overlay is a modal dialog: its button takes the focus (an embed never takes it
    // from the page around it)
    if (retry && el("loading")) retry.focus();
  }

  function ready() {
    if (boot.stage === "ready") return;
    boot.error = null;
    boot.slow = false;
    enter("ready");
    clearInterval(creep);
    clearTimeout(timer);
    observers.forEach(function (o) { o.disconnect(); });  // the page's Python owns the DOM now
    var overlay = el("loading");
    if (overlay) {
      overlay.classList.add("is-done");
      setTimeout(function () { if (overlay.parentNode) overlay.remove(); }, 300);
    }
    post();
    // when the ready table was first painted (a task after the next frame): the benchmark
    // reports it beside the ready marker. What comes next waits for it, and for a quiet
    // moment: storing the site (about 20 MB) and making the device's snapshot would otherwise
    // compete with the first frame and the bots' first moves.
    requestAnimationFrame(function () {
      setTimeout(function () {
        note("painted");
        if (window.requestIdleCallback) requestIdleCallback(settle, { timeout: 2000 });
        else setTimeout(settle, 500);
      }, 0);
    });
  }

  // After ready: what the page downloaded into the site's cache, the service worker, then the
  // interpreter module's background work (each step waits for the one before).
  function settle() {
    // (a third-party frame keeps no copy of the site: a partitioned worker would serve only
    // that one article, and a refused one can't install)
    var offline = root.hasAttribute("data-sw") && boot.storage.frame !== "third-party";
    var keep = offline && BUILD !== "dev" && typeof boot.keep === "function";
    Promise.resolve(keep ? boot.keep() : 0)
      .catch(function (err) { console.warn("sxmj: could not keep the downloaded files: " + err); })
      .then(function () { return offline ? serviceWorker() : null; })
      .then(function () { if (typeof boot.settle === "function") return boot.settle(); })
      .catch(function (err) { console.warn("sxmj: " + err); });
  }
  boot.fail = fail;
  // A file the interpreter module adds to the download stage (by its name in WEIGHTS).
  boot.need = function (name) {
    if (NEEDED.indexOf(name) < 0 && boot.fetched[name] === undefined) NEEDED.push(name);
  };

  // Offline: a built site (`make site`) registers sw.js once the page is up, so its caching
  // never competes with the first boot. A dev page (`make play`, build "dev") never runs one,
  // and drops one a built site left at this address (edits stay fresh). Resolves once the
  // worker controls the page (its install has filled the site's cache), or at once when there
  // is none to wait for.
  function serviceWorker() {
    var sw;
    try { sw = navigator.serviceWorker; } catch (e) { return null; }  // refused: no offline
    if (!sw || !window.isSecureContext) return null;
    if (BUILD === "dev") {
      sw.getRegistrations().then(function (regs) {
        regs.forEach(function (reg) {
          if (location.href.indexOf(reg.scope) !== 0) return;
          reg.unregister();
          console.warn("sxmj: dev page: removed the service worker of a built site (" +
            reg.scope + "); reload if this page looks stale");
        });
      });
      return null;
    }
    return sw.register("./sw.js").then(function (reg) {
      note("sw", "registered");
      if (sw.controller) return;
      // the worker claims the page once it is installed and active; an install that fails
      // (a file the server no longer has) leaves it redundant: go on without it
      return new Promise(function (resolve) {
        sw.addEventListener("controllerchange", resolve, { once: true });
        var worker = reg.installing || reg.waiting;
        if (worker) {
          worker.addEventListener("statechange", function () {
            if (worker.state === "redundant") resolve();
          });
        }
        setTimeout(resolve, SW_WAIT_MS);
      });
    }).then(function () { note("sw", sw.controller ? "controls" : "not in control"); }, function (err) {
      console.warn("sxmj: no offline play, the service worker did not register: " + err);
    });
  }

  // embed.html: tell the parent page how tall the content is (it may size the iframe to it).
  var lastHeight = 0;
  function post() {
    if (!root.hasAttribute("data-embed") || window.parent === window) return;
    var body = document.body;
    if (!body) return;
    var height = Math.ceil(body.getBoundingClientRect().height);
    if (height === lastHeight || height === 0) return;
    lastHeight = height;
    try {
      window.parent.postMessage({ type: "sxmj-embed-size", height: height }, "*");
    } catch (e) { /* a parent that can't be reached: the frame keeps its own size */ }
  }

  // The language switch works before Python too: a link to the same page in the other language.
  function langLinks() {
    var other = root.getAttribute("data-lang") === "zh" ? "en" : "zh";
    var links = document.querySelectorAll('[data-ui="lang"]');
    for (var i = 0; i < links.length; i++) {
      var q = new URLSearchParams(location.search);
      if (other === "zh") q.delete("lang"); else q.set("lang", other);
      var s = q.toString();
      links[i].setAttribute("href", s ? "?" + s : location.pathname);
    }
  }

  // 1. Runtime files arriving (resource timing works for fetch, imports and preloads).
  function onResources(list) {
    list.getEntries().forEach(function (entry) {
      var name = entry.name.split("?")[0].split("/").pop();
      if (/^python_stdlib-\w+\.zip$/.test(name)) name = "python_stdlib.zip";
      if (/^sxmj-\w+\.json$/.test(name)) name = "sources";
      if (!(name in WEIGHTS) || boot.fetched[name] !== undefined) return;
      boot.fetched[name] = Math.round(entry.responseEnd);
      note("fetched", name);
      if (boot.stage === "download") setPercent(boot.percent + WEIGHTS[name]);
      if (NEEDED.every(function (n) { return boot.fetched[n] !== undefined; })) enter("start");
    });
  }
  try {
    var resources = new PerformanceObserver(onResources);
    resources.observe({ type: "resource", buffered: true });
    observers.push(resources);
  } catch (e) { /* very old browser: stages still advance on py:progress below */ }

  // 2. PyScript's own progress events ("Loading Pyodide", "Loaded Pyodide", ...).
  addEventListener("py:progress", function (event) {
    var what = String(event.detail);
    note("py:progress", what);
    if (/^Loaded (Pyodide|interpreter)/.test(what)) { enter("start"); enter("prepare"); }
  });
  addEventListener("py:ready", function () { note("py:ready"); enter("prepare"); }, true);
  addEventListener("py:done", function () { note("py:done"); }, true);

  // 3. Failures: a Python error banner, an uncaught error, or no progress for too long.
  addEventListener("error", function (event) {
    var target = event.target;
    if (target && target !== window && target.tagName === "SCRIPT") {
      fail("Could not load " + (target.src || "a script"));
    } else if (event.message) {
      fail(event.message);
    }
  }, true);
  addEventListener("unhandledrejection", function (event) {
    var r = event.reason;
    fail(r && r.message ? r.message : r);
  });
  timer = setTimeout(function () {
    boot.slow = true;
    note("slow");
    render();
  }, TIMEOUT_MS);
  creep = setInterval(tick, 200);

  function watchDom() {
    var dom = new MutationObserver(function () {
      var err = document.querySelector(".py-error");
      if (err) fail(err.textContent.trim() || "Python error");
      if (document.body.getAttribute("data-sxmj-ready") === "1") ready();
    });
    dom.observe(root, {
      subtree: true, childList: true, attributes: true, attributeFilter: ["data-sxmj-ready"]
    });
    observers.push(dom);
    var retry = el("loading-retry");
    if (retry) retry.addEventListener("click", function () { location.reload(); });
    // The page's policy runs no inline handler (scripts/build_site.py CSP): what markup
    // asked of one is here, working even when Python has stopped. A [data-reload] button
    // reloads the page (the game's error box); no form is ever sent anywhere (the settings).
    document.addEventListener("click", function (event) {
      var target = event.target;
      if (target && target.closest && target.closest("[data-reload]")) location.reload();
    });
    document.addEventListener("submit", function (event) { event.preventDefault(); }, true);
    if (root.hasAttribute("data-lang")) langLinks();
    if (root.hasAttribute("data-embed") && window.ResizeObserver) {
      new ResizeObserver(post).observe(document.body);
    }
    post();
    note("dom");
    boot.domReady = true;
    render();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watchDom);
  } else {
    watchDom();
  }
  note("boot-script");
})();
