// Boot of learn.html, calc.html and embed.html: runs before PyScript (a classic script in
// <head>). It
//  - picks the language from ?lang=zh|en (default zh) before the first paint: the static text
//    of both languages is in the page, html[data-lang] shows one;
//  - shows the loading line (#boot) until Python sets body[data-sxmj-ready="1"], and a readable
//    error with a retry button when the boot fails (a Python error, a script that won't load);
//  - in embed.html (html[data-embed]), posts the content's height to the parent page:
//    postMessage({type: "sxmj-embed-size", height}), so a 3-line snippet can size the iframe;
//  - on a built site (meta sxmj-build not "dev"), registers the game's service worker once the
//    page is up (html[data-sw]), so every page shares one cached runtime.
(function () {
  "use strict";
  var root = document.documentElement;
  var params = new URLSearchParams(location.search);
  var lang = params.get("lang") === "en" ? "en" : "zh";
  root.setAttribute("data-lang", lang);
  root.lang = lang === "zh" ? "zh-Hans" : "en";
  var BUILD = (document.querySelector('meta[name="sxmj-build"]') || {}).content || "dev";
  var boot = window.sxmjBoot = { log: [], error: null, stage: "download", build: BUILD, fetched: {} };
  boot.note = function (event, detail) {
    boot.log.push({ event: event, detail: detail || "", t: Math.round(performance.now()) });
  };
  boot.need = function () {};
  var TIMEOUT_MS = 90000;
  var timer = 0;

  function el(id) { return document.getElementById(id); }

  function fail(detail) {
    if (boot.error !== null || boot.stage === "ready") return;
    boot.error = String(detail || "unknown error").slice(-3000);
    boot.note("error", boot.error);
    clearTimeout(timer);
    root.setAttribute("data-boot", "error");
    var box = el("boot-error");
    if (box) {
      box.hidden = false;
      var pre = el("boot-error-detail");
      if (pre) pre.textContent = boot.error;
    }
  }

  function ready() {
    if (boot.stage === "ready") return;
    boot.stage = "ready";
    boot.note("stage", "ready");
    clearTimeout(timer);
    root.setAttribute("data-boot", "ready");
    post();
    if (root.hasAttribute("data-sw")) serviceWorker();
  }

  function serviceWorker() {
    var sw = navigator.serviceWorker;
    if (!sw || !window.isSecureContext || BUILD === "dev") return;
    sw.register("./sw.js").then(function () { boot.note("sw", "registered"); }, function (err) {
      console.warn("sxmj: no offline use, the service worker did not register: " + err);
    });
  }

  // The language switch works before Python too: a link to the same page in the other language.
  function langLinks() {
    var other = lang === "zh" ? "en" : "zh";
    var links = document.querySelectorAll('[data-ui="lang"]');
    for (var i = 0; i < links.length; i++) {
      var q = new URLSearchParams(location.search);
      if (other === "zh") q.delete("lang"); else q.set("lang", other);
      var s = q.toString();
      links[i].setAttribute("href", s ? "?" + s : location.pathname);
    }
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
    boot.note("slow");
    root.setAttribute("data-boot", "slow");
  }, TIMEOUT_MS);

  function watchDom() {
    var dom = new MutationObserver(function () {
      var err = document.querySelector(".py-error");
      if (err) fail(err.textContent.trim() || "Python error");
      if (document.body.getAttribute("data-sxmj-ready") === "1") ready();
    });
    dom.observe(root, {
      subtree: true, childList: true, attributes: true, attributeFilter: ["data-sxmj-ready"]
    });
    var retry = el("boot-retry");
    if (retry) retry.addEventListener("click", function () { location.reload(); });
    langLinks();
    if (root.hasAttribute("data-embed") && window.ResizeObserver) {
      new ResizeObserver(post).observe(document.body);
    }
    post();
    boot.note("dom");
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watchDom);
  } else {
    watchDom();
  }
  addEventListener("py:ready", function () { boot.note("py:ready"); boot.stage = "prepare"; }, true);
  boot.note("boot-script");
})();
