// The layout audit (e2e/layout.py runs it; e2e/test_layout_audit.py on every screen): what a
// person's eye would object to on the page as it is drawn now, as a list of problems in words.
//
//   ({scope, names, exempt}) => ["problem", ...]
//
// scope: a selector of the layer being looked at (the table, an open sheet, the result
// panel); only what is inside it is judged, and what covers it is judged too.
// names: the selector of player names, the only text allowed to end in a deliberate ellipsis.
// exempt: controls exempt from the 24 × 24 px target size (the hand's own tiles).
//
// It fails on
//  - ink over ink: a text or a tile face drawn over another one (hit-testing the point: both
//    are there, nothing opaque between them), and text covered by a painted box that is no
//    ancestor of it (a bar over a seat, a select over its label);
//  - ink showing through a sticky or fixed bar that is no ancestor of it (a badge over a
//    panel's footer);
//  - text clipped by a box whose overflow is hidden (a deliberate ellipsis is allowed on
//    player names only), and text spilling out of its own painted box, or that box out of
//    the painted box around it;
//  - a control outside the viewport that no scrolling brings back, or covered where a tap
//    would land;
//  - any sideways scroll: of the page, or of a box whose overflow is hidden (a focused
//    control can nudge one);
//  - a tap target under 24 × 24 CSS px (WCAG 2.5.8), except the exempt ones and links inside
//    running text (WCAG's inline exception);
//  - text under WCAG AA's contrast on the solid colours behind it, where axe-core's own
//    colour-contrast rule (run beside this, e2e/layout.py) leaves a box "incomplete";
//  - a set of tiles (a winning reading's set, a meld) not drawn in one row.
// Every scrollable box in the scope (and the page) is stepped through, a viewport at a time,
// so text scrolled out of sight is judged too; the scroll positions are put back afterwards.
async ({scope = "body", names = "", exempt = ""} = {}) => {
  const problems = [];
  const seen = new Set();
  const say = (text) => { if (!seen.has(text)) { seen.add(text); problems.push(text); } };
  const roots = [...document.querySelectorAll(scope)];
  if (!roots.length) return [`nothing matches the scope ${scope}`];
  const inScope = (el) => roots.some((r) => r.contains(el));
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const styles = new Map();
  const css = (el) => {
    let s = styles.get(el);
    if (!s) { s = getComputedStyle(el); styles.set(el, s); }
    return s;
  };
  const label = (el) => {
    if (!el || el.nodeType !== 1) return String(el);
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    const cls = [...el.classList].slice(0, 2);
    if (cls.length) s += "." + cls.join(".");
    for (const a of ["data-testid", "data-ui", "data-action", "data-tab", "data-tile"]) {
      if (el.hasAttribute(a)) { s += `[${a}=${el.getAttribute(a)}]`; break; }
    }
    const text = (el.innerText || el.getAttribute("aria-label") || el.alt || "").trim();
    if (text) s += ` "${text.replace(/\s+/g, " ").slice(0, 28)}"`;
    return s;
  };
  const box = (r) => `${Math.round(r.width)}×${Math.round(r.height)} at ` +
    `(${Math.round(r.left)}, ${Math.round(r.top)})`;
  const alpha = (color) => {
    const m = /rgba?\(([^)]+)\)/.exec(color || "");
    if (!m) return color === "transparent" ? 0 : 1;
    const parts = m[1].split(/[,\s/]+/).filter(Boolean);
    return parts.length > 3 ? parseFloat(parts[3]) : 1;
  };
  const paints = (el) => {
    const s = css(el);
    if (alpha(s.backgroundColor) >= 0.35 || s.backgroundImage !== "none") return true;
    return ["Top", "Right", "Bottom", "Left"].some((side) =>
      parseFloat(s[`border${side}Width`]) >= 1 && s[`border${side}Style`] !== "none" &&
      alpha(s[`border${side}Color`]) >= 0.35);
  };
  // shown: laid out, visible, not faded out, not visually hidden (sr-only, clip)
  const shownCache = new Map();
  const shown = (el) => {
    if (shownCache.has(el)) return shownCache.get(el);
    let ok = true;
    const s = css(el);
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true,
                                                   visibilityProperty: true})) {
      ok = false;
    } else if (s.visibility !== "visible" || s.display === "none" || parseFloat(s.opacity) < 0.15 ||
        (s.clip && s.clip !== "auto") || s.clipPath !== "none" ||
        s.contentVisibility === "hidden") {
      ok = false;
    } else if (el.parentElement) {
      ok = shown(el.parentElement);
    }
    shownCache.set(el, ok);
    return ok;
  };
  const within = (r, c, tol = 1) => r.left >= c.left - tol && r.right <= c.right + tol &&
    r.top >= c.top - tol && r.bottom <= c.bottom + tol;
  const meets = (r, c) => r.left < c.right && c.left < r.right && r.top < c.bottom &&
    c.top < r.bottom;
  const clipBox = (el) => {
    const r = el.getBoundingClientRect(), s = css(el);
    return {
      left: r.left + parseFloat(s.borderLeftWidth), top: r.top + parseFloat(s.borderTopWidth),
      right: r.right - parseFloat(s.borderRightWidth),
      bottom: r.bottom - parseFloat(s.borderBottomWidth),
    };
  };
  const scrolls = (v) => v === "auto" || v === "scroll";
  const clips = (v) => v === "hidden" || v === "clip";

  const stickyOf = (el) => {
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      if (css(a).position === "sticky") return a;
    }
    return null;
  };
  const scrollerOf = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = css(a);
      if (scrolls(s.overflowY) || scrolls(s.overflowX)) return a;
    }
    return null;
  };

  // ---------- sideways scroll ----------
  const page = document.scrollingElement || document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) {
    say(`the page scrolls sideways: ${page.scrollWidth} px wide in a ${page.clientWidth} px ` +
        `viewport`);
  }
  if (window.scrollX !== 0) say(`the page is scrolled sideways by ${window.scrollX} px`);
  const all = [...document.querySelectorAll("body *")];
  for (const el of all) {
    if (el.scrollLeft !== 0 && clips(css(el).overflowX)) {
      say(`${label(el)} (overflow hidden) is scrolled sideways by ${el.scrollLeft} px`);
    }
  }

  // ---------- controls ----------
  const CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea, summary, " +
    "[role=button], [role=tab], [role=switch], [role=checkbox], [tabindex]:not([tabindex='-1'])";
  const controls = [...document.querySelectorAll(CONTROLS)].filter((el) => inScope(el) &&
    !el.closest("[inert]") && el.getClientRects().length && shown(el) &&
    !el.closest(".sr-only"));
  const pseudoGrow = (el, r) => {
    let out = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    for (const which of ["::before", "::after"]) {
      const p = getComputedStyle(el, which);
      if (p.content === "none" || p.position !== "absolute" || p.display === "none") continue;
      const px = (v) => (v.endsWith("px") ? parseFloat(v) : 0);
      out = {
        left: Math.min(out.left, r.left + px(p.left)),
        top: Math.min(out.top, r.top + px(p.top)),
        right: Math.max(out.right, r.right - px(p.right)),
        bottom: Math.max(out.bottom, r.bottom - px(p.bottom)),
      };
    }
    return out;
  };
  const inlineLink = (el) => {
    if (el.tagName !== "A") return false;
    const block = el.parentElement;
    if (!block || !["P", "LI", "TD", "DD", "SPAN", "SMALL", "FIGCAPTION"].includes(block.tagName)) {
      return false;
    }
    return [...block.childNodes].some((n) => n !== el && n.nodeType === 3 && n.textContent.trim());
  };
  const fixedChain = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const p = css(a).position;
      if (p === "fixed") return true;
      if (a.matches("dialog:modal, [popover]:popover-open")) return true;
    }
    return false;
  };
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    // target size
    if (!(exempt && el.matches(exempt)) && !inlineLink(el)) {
      let t = pseudoGrow(el, r);
      const lab = el.closest("label");
      if (lab) {
        const l = lab.getBoundingClientRect();
        t = {left: Math.min(t.left, l.left), top: Math.min(t.top, l.top),
             right: Math.max(t.right, l.right), bottom: Math.max(t.bottom, l.bottom)};
      }
      const w = t.right - t.left, h = t.bottom - t.top;
      if (w < 23.5 || h < 23.5) {
        say(`tap target ${label(el)} is ${Math.round(w)}×${Math.round(h)} px (under 24×24)`);
      }
    }
    // reachable: every clipping box holds it, the viewport or the page's scroll reaches it
    let reach = true, why = "";
    let cur = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = css(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const c = clipBox(a);
      for (const [axis, lo, hi, over] of [["x", "left", "right", s.overflowX],
                                          ["y", "top", "bottom", s.overflowY]]) {
        if (over === "visible") continue;
        const size = axis === "x" ? a.scrollWidth : a.scrollHeight;
        const pos = axis === "x" ? a.scrollLeft : a.scrollTop;
        if (clips(over)) {
          if (cur[lo] < c[lo] - 1 || cur[hi] > c[hi] + 1) {
            reach = false;
            why = `cut off by ${label(a)} (overflow hidden)`;
          }
        } else if (scrolls(over)) {
          const start = cur[lo] - c[lo] + pos;
          if (start < -1 || start + (cur[hi] - cur[lo]) > size + 1) {
            reach = false;
            why = `outside the scroll range of ${label(a)}`;
          } else if (cur[hi] - cur[lo] > c[hi] - c[lo] + 1) {
            reach = false; // never seen whole: a tab strip squashed to half a tab's height
            why = `${Math.round(cur[hi] - cur[lo])} px, in ${label(a)} that shows ` +
              `${Math.round(c[hi] - c[lo])} px of it`;
          }
          // scrolled into view inside it: from here on it sits where the box shows it
          const len = cur[hi] - cur[lo];
          const at = Math.min(Math.max(cur[lo], c[lo]), Math.max(c[lo], c[hi] - len));
          cur[lo] = at;
          cur[hi] = at + len;
        }
      }
      if (!reach) break;
    }
    if (reach) {
      if (cur.left < -1 || cur.right > vw + 1) {
        reach = false;
        why = `beyond the viewport's side (x ${Math.round(cur.left)}…${Math.round(cur.right)})`;
      } else if (fixedChain(el)) {
        if (cur.top < -1 || cur.bottom > vh + 1) {
          reach = false;
          why = `outside a fixed layer's view (y ${Math.round(cur.top)}…${Math.round(cur.bottom)})`;
        }
      } else {
        const top = cur.top + window.scrollY, bottom = cur.bottom + window.scrollY;
        if (top < -1 || bottom > page.scrollHeight + 1) {
          reach = false;
          why = `outside the page (y ${Math.round(top)}…${Math.round(bottom)})`;
        }
      }
    }
    if (!reach) say(`control ${label(el)} can't be reached: ${why}`);
    // covered where a tap lands (only when it is in view now)
    if (reach && r.left >= 0 && r.top >= 0 && r.right <= vw && r.bottom <= vh &&
        r.width > 2 && r.height > 2) {
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      const lab = el.closest("label") || (el.id && document.querySelector(`label[for="${el.id}"]`));
      if (hit && !el.contains(hit) && !(lab && lab.contains(hit)) && !hit.contains(el)) {
        // a clipping box can hide a control that is "reachable" by its numbers: the hit
        // test is the truth of where a tap lands
        let inView = true;
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
          const s = css(a);
          if (s.overflowX !== "visible" || s.overflowY !== "visible") {
            if (!within({left: x, right: x, top: y, bottom: y}, clipBox(a), 0)) inView = false;
          }
        }
        // under a sticky bar of its own scrolling box: scrolling brings it out
        const bar = stickyOf(hit);
        const under = bar && scrollerOf(bar) && scrollerOf(bar).contains(el);
        if (inView && !under) {
          say(`control ${label(el)} is covered by ${label(hit)} where a tap lands`);
        }
      }
    }
  }

  // ---------- ink: text and tile faces ----------
  const isTile = (el) => el.closest(".t");
  const group = (el) => el.closest(".t") || el;
  const force = document.createElement("style");
  force.textContent = "*, *::before, *::after { pointer-events: auto !important; }";
  const textRectsOf = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return [...range.getClientRects()].filter((q) => q.width > 0.5 && q.height > 0.5);
  };
  const inks = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || !node.textContent.trim() || !inScope(el) || !shown(el)) continue;
    if (["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "OPTION"].includes(el.tagName)) continue;
    inks.push({el, node, text: true});
  }
  for (const img of document.querySelectorAll("img")) {
    if (inScope(img) && shown(img) && img.getClientRects().length) {
      inks.push({el: img, node: null, text: false});
    }
  }
  const rectsOf = (ink) => (ink.text ? textRectsOf(ink.node) : [img_rect(ink.el)]);
  function img_rect(el) { return el.getBoundingClientRect(); }
  const inkName = (ink) => (ink.text ? `text "${ink.node.textContent.trim().slice(0, 30)}" ` +
    `in ${label(ink.el)}` : label(isTile(ink.el) || ink.el));
  // text in its own painted box (and that box in the one around it), never clipped
  const clippers = (el, self = false) => {
    const out = [];
    for (let a = self ? el : el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = css(a);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") out.push(a);
    }
    return out;
  };
  // the boxes that clip a text, each with the axes it clips in: past a box that scrolls in
  // an axis, the boxes around it clip nothing of it in that axis (it scrolls into view)
  const clipping = (el, self) => {
    const out = [];
    let freeX = false, freeY = false;
    for (const a of clippers(el, self)) {
      const s = css(a);
      out.push({a, x: !freeX && s.overflowX !== "visible", y: !freeY && s.overflowY !== "visible",
                sx: scrolls(s.overflowX), sy: scrolls(s.overflowY)});
      freeX = freeX || scrolls(s.overflowX);
      freeY = freeY || scrolls(s.overflowY);
    }
    return out;
  };
  // the painted box a text sits in; none when the way up leaves the flow on purpose (a
  // badge placed out of its box) or passes a scrolling box (its content may run past)
  const paintedFrom = (el) => {
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      if (paints(a) && css(a).display !== "inline") return a;
      const s = css(a);
      if (s.position === "absolute" || s.position === "fixed") return null;
      if (scrolls(s.overflowX) || scrolls(s.overflowY)) return null;
    }
    return null;
  };
  for (const ink of inks) {
    const rects = rectsOf(ink);
    if (!rects.length) continue;
    for (const {a, x, y, sx, sy} of clipping(ink.el, ink.text)) { // its own box clips too
      const s = css(a), c = clipBox(a);
      for (const q of rects) {
        if (!meets(q, c)) continue;
        const outX = q.left < c.left - 1 || q.right > c.right + 1;
        const outY = q.top < c.top - 1.5 || q.bottom > c.bottom + 1.5;
        // cut where the box clips; where it scrolls, only a text bigger than what it shows
        const cutX = x && (sx ? q.width > c.right - c.left + 1 : outX);
        const cutY = y && (sy ? q.height > c.bottom - c.top + 1.5 : outY);
        if (!cutX && !cutY) continue;
        const ellipsis = css(ink.el).textOverflow === "ellipsis" || s.textOverflow === "ellipsis";
        if (ellipsis && names && ink.el.closest(names)) continue;
        say(`${inkName(ink)} is clipped by ${label(a)}`);
      }
    }
    if (!ink.text) continue;
    const own = paintedFrom(ink.el);
    if (own && inScope(own)) {
      const o = own.getBoundingClientRect(), so = css(own);
      // a box that scrolls holds what runs past it, along the way it scrolls
      const open = {left: scrolls(so.overflowX) ? -1e9 : o.left,
                    right: scrolls(so.overflowX) ? 1e9 : o.right,
                    top: scrolls(so.overflowY) ? -1e9 : o.top,
                    bottom: scrolls(so.overflowY) ? 1e9 : o.bottom};
      for (const q of rects) {
        if (!within(q, open, 1.5)) say(`${inkName(ink)} spills out of its box ${label(own)}`);
      }
      const pos = css(own).position;
      const outer = own.parentElement && paintedFrom(own.parentElement);
      if (outer && inScope(outer) && pos !== "absolute" && pos !== "fixed" &&
          !within(o, outer.getBoundingClientRect(), 1.5) && !clippers(own).includes(outer)) {
        say(`${label(own)} spills out of ${label(outer)}`);
      }
    }
  }
  // colour contrast where axe-core gives up (it calls a box with a pseudo-element "incomplete"):
  // the text's colour on the solid colours of the boxes behind it, composited up the tree;
  // judged only when no gradient or image is on the way
  const rgba = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || "");
    if (!m) return null;
    const v = m[1].split(/[,\s/]+/).filter(Boolean).map(parseFloat);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3] + under[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    return [0, 1, 2].map((i) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a)
      .concat([a]);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const backdrop = (el) => {
    const layers = [];
    for (let a = el; a; a = a.parentElement) {
      const s = css(a);
      if (s.backgroundImage !== "none") return null;
      const c = rgba(s.backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 0.999) break;
      if (s.position === "absolute" || s.position === "fixed") {
        if (!(c && c[3] >= 0.999)) return null; // over whatever lies beneath: unknown
      }
    }
    let bg = [255, 255, 255, 1];
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const judged = new Set();
  for (const ink of inks) {
    if (!ink.text || judged.has(ink.el)) continue;
    judged.add(ink.el);
    const s = css(ink.el), fg0 = rgba(s.color), bg = backdrop(ink.el);
    if (!fg0 || !bg) continue;
    let opacity = 1;
    for (let a = ink.el; a; a = a.parentElement) opacity *= parseFloat(css(a).opacity);
    const fg = over([fg0[0], fg0[1], fg0[2], fg0[3] * opacity], bg);
    const l1 = lum(fg), l2 = lum(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const size = parseFloat(s.fontSize), bold = parseInt(s.fontWeight, 10) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need && !ink.el.closest("[disabled], [aria-disabled=true]")) {
      say(`colour contrast ${ratio.toFixed(2)}:1 (under ${need}:1) of ${inkName(ink)}`);
    }
  }

  // ink over ink, covered, showing through a bar. Hit-testing is dear (a millisecond a point
  // on a long page), so only where two inks meet, or an ink meets a painted box that is no
  // ancestor of it, is the point hit-tested; at each scroll position of the page and of every
  // scrolling box in the scope
  const sticky = (el) => ["sticky", "fixed"].includes(css(el).position);
  const point = (x, y) => ({left: x, right: x, top: y, bottom: y});
  const inkAt = (e, x, y) => e.tagName === "IMG" || [...e.childNodes].some((n) =>
    n.nodeType === 3 && n.textContent.trim() &&
    textRectsOf(n).some((t) => within(point(x, y), t, 0)));
  const judgeAt = (ink, x, y) => {
    const stack = document.elementsFromPoint(x, y);
    let k = stack.indexOf(ink.el);
    if (k < 0) {
      // Not hit: clipped away here, or an inline text under a box that hides it from
      // hit-testing (a select over its own label): then judge what lies above the
      // nearest ancestor that is hit
      if (clippers(ink.el).some((a) => !within(point(x, y), clipBox(a), 0))) return;
      k = stack.findIndex((e) => e.contains(ink.el));
      if (k < 0) return;
    }
    const g = group(ink.el);
    for (let j = 0; j < k; j++) {
      const e = stack[j];
      if (e.contains(ink.el) || ink.el.contains(e) || g.contains(e) || !shown(e)) continue;
      // a tile's corner under the 财 badge of its neighbour: tiles touch by design
      if (isTile(e) && isTile(ink.el) && (!ink.text || e.tagName === "IMG" ||
                                          !inkAt(e, x, y))) {
        continue;
      }
      // content scrolling under a sticky bar of its own scrolling box, as it should
      const bar = stickyOf(e);
      if (bar && scrollerOf(bar) && scrollerOf(bar).contains(ink.el)) return;
      if (inkAt(e, x, y)) {
        say(`${e.tagName === "IMG" ? label(isTile(e) || e) : `text in ${label(e)}`} ` +
            `is drawn over ${inkName(ink)}`);
        return;
      }
      if (paints(e)) {
        say(`${inkName(ink)} is covered by ${label(e)}`);
        return;
      }
    }
    for (let j = k + 1; j < stack.length; j++) {
      const e = stack[j];
      if (e.contains(ink.el) || !sticky(e) || !paints(e) || !inScope(e)) continue;
      say(`${inkName(ink)} shows through ${label(e)}`);
      return;
    }
  };
  const boxes = [...document.querySelectorAll("body *")].filter((el) => shown(el) &&
    paints(el) && el.getClientRects().length);
  const CELL = 64;
  const cells = (q) => {
    const out = [];
    for (let cx = Math.floor(Math.max(0, q.left) / CELL); cx <= Math.floor(Math.min(vw, q.right) / CELL); cx++) {
      for (let cy = Math.floor(Math.max(0, q.top) / CELL); cy <= Math.floor(Math.min(vh, q.bottom) / CELL); cy++) {
        out.push(cx * 1000 + cy);
      }
    }
    return out;
  };
  const overlap = (a, b, by = 1) => a.left < b.right - by && b.left < a.right - by &&
    a.top < b.bottom - by && b.top < a.bottom - by;
  const inView = (q) => q.right > 0 && q.bottom > 0 && q.left < vw && q.top < vh;
  const done = new Set();
  const judge = () => {
    const grid = new Map();
    const put = (key, item) => { if (!grid.has(key)) grid.set(key, []); grid.get(key).push(item); };
    const items = [];
    for (const ink of inks) {
      for (const q of rectsOf(ink)) {
        if (!inView(q)) continue;
        const item = {ink, q, el: ink.el, g: group(ink.el)};
        items.push(item);
        for (const key of cells(q)) put(key, item);
      }
    }
    for (const el of boxes) {
      const q = el.getBoundingClientRect();
      if (!inView(q)) continue;
      for (const key of cells(q)) put(key, {box: el, q});
    }
    for (const item of items) {
      const {ink, q, el, g} = item;
      const near = new Set();
      for (const key of cells(q)) for (const other of grid.get(key) || []) near.add(other);
      for (const other of near) {
        if (other === item || !overlap(q, other.q)) continue;
        if (other.ink) {
          if (other.g === g || other.el.contains(el) || el.contains(other.el)) continue;
        } else {
          const e = other.box;
          if (e.contains(el) || el.contains(e) || g.contains(e) || e.contains(g)) continue;
        }
        // the middle of where they meet
        const x = (Math.max(q.left, other.q.left) + Math.min(q.right, other.q.right)) / 2;
        const y = (Math.max(q.top, other.q.top) + Math.min(q.bottom, other.q.bottom)) / 2;
        if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
        const key = `${Math.round(x)},${Math.round(y)}`;
        if (done.has(key + "|" + inks.indexOf(ink))) continue;
        done.add(key + "|" + inks.indexOf(ink));
        judgeAt(ink, x, y);
      }
    }
  };
  for (const ink of inks) {
    ink.box = null;
    for (let a = ink.el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (scrolls(css(a).overflowY) && a.scrollHeight > a.clientHeight + 2) { ink.box = a; break; }
    }
  }
  const scrollers = [...new Set(inks.map((ink) => ink.box).filter(Boolean))];
  const saved = [window.scrollY, ...scrollers.map((el) => el.scrollTop)];
  document.head.appendChild(force);
  try {
    const y0 = window.scrollY;
    const pageSteps = page.scrollHeight > vh + 2 ? Math.ceil((page.scrollHeight - vh) / vh) : 0;
    for (let p = 0; p <= pageSteps; p++) {
      if (pageSteps) window.scrollTo(0, Math.min(p * vh, page.scrollHeight - vh));
      judge();
    }
    if (pageSteps) { window.scrollTo(0, y0); }
    for (const sc of scrollers) {
      const step = Math.max(40, sc.clientHeight - 20);
      const start = sc.scrollTop;
      for (let y = 0; y <= sc.scrollHeight - sc.clientHeight + step - 1; y += step) {
        sc.scrollTop = y;
       
        judge();
      }
      sc.scrollTop = start;
    }
  } finally {
    force.remove();
    window.scrollTo(0, saved[0]);
    scrollers.forEach((el, i) => { el.scrollTop = saved[i + 1]; });
  }
  // a set of tiles (a winning reading's set, a meld) reads as a row: a column of three
  // tiles is a set no player would recognise
  for (const set of document.querySelectorAll(".tg--set")) {
    if (!inScope(set) || !shown(set)) continue;
    const tops = [...set.querySelectorAll(".t")].map((t) => t.getBoundingClientRect().top);
    if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 4) {
      say(`a set's tiles are not in one row: ${label(set)}, ${box(set.getBoundingClientRect())}`);
    }
  }
  return problems;
}
