// view.js is a virtualized list: only the items on screen, plus a small
// overscan, exist in the DOM. Items have heights in whole row units (a
// diff line is one unit, wrap off), so the item at any scroll offset is a
// binary search over the cumulative offsets the caller provides.
//
// A browser caps an element's height (about 33 million pixels in Chromium,
// fewer elsewhere), so past maxPx the spacer is shorter than the content
// and the scroll offset is scaled: virtual = scrollTop * ratio. Rows are
// drawn in a layer that sticks to the viewport and are placed at their
// virtual offset minus the virtual scroll, so the scale never shows.
import { el } from './dom.js';

const MAX_PX = 8000000;

export class VirtualList {
  // scroller is the scrolling element (overflow: auto). render(i) returns
  // a new element for item i; rowHeight is one unit in pixels; overscan is
  // how many items are kept beyond each edge; onRender(first, last) is
  // told which items are visible after each frame.
  constructor(scroller, { render, rowHeight, overscan = 8, onRender = null }) {
    this.scroller = scroller;
    this.renderItem = render;
    this.rowH = rowHeight;
    this.overscan = overscan;
    this.onRender = onRender;
    this.n = 0;
    this.top = new Float64Array(1);
    this.live = new Map();
    this.spacer = el('div', { class: 'vl-spacer' });
    this.layer = el('div', { class: 'vl-layer' });
    this.spacer.appendChild(this.layer);
    scroller.appendChild(this.spacer);
    this.frame = 0;
    // stats count the renders and their time in ms (performance.now), for
    // scripts/web-bench.
    this.stats = { renders: 0, ms: 0, maxMs: 0, times: [] };
    this.viewH = 0;
    this.viewW = 0;
    this.contentW = 0;
    scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    new ResizeObserver(() => { this.measure(); this.render(); }).observe(scroller);
    this.measure();
  }

  measure() {
    this.viewH = this.scroller.clientHeight;
    this.viewW = this.scroller.clientWidth;
    this.layer.style.height = this.viewH + 'px';
    this.layer.style.width = this.viewW + 'px';
    this.size();
  }

  size() {
    this.totalPx = this.top[this.n] * this.rowH;
    this.spacerPx = Math.min(this.totalPx, MAX_PX);
    this.spacer.style.height = Math.max(this.spacerPx, this.viewH) + 'px';
    this.spacer.style.width = Math.max(this.contentW, this.viewW) + 'px';
  }

  // setModel replaces the items: n of them, top their cumulative offsets
  // in units (n+1 entries), contentWidth the widest item in pixels (for
  // horizontal scrolling). Every element is rendered anew.
  setModel(n, top, contentWidth) {
    this.n = n;
    this.top = top;
    this.contentW = contentWidth;
    this.size();
    this.rerender();
  }

  // refresh re-renders the visible items (their content changed, their
  // heights did not).
  refresh() { this.rerender(); }

  // rerender renders every visible item anew. An element that render
  // returns again (the comment editor) stays attached, so it keeps the
  // keyboard focus and what is being typed.
  rerender() {
    const old = this.live;
    this.live = new Map();
    this.render();
    const kept = new Set(this.live.values());
    for (const e of old.values()) if (!kept.has(e)) e.remove();
  }

  // redraw renders item i again if it is in the DOM.
  redraw(i) {
    const old = this.live.get(i);
    if (!old) return;
    const e = this.renderItem(i);
    e.dataset.item = old.dataset.item;
    e.style.height = old.style.height;
    e.style.transform = old.style.transform;
    if (e !== old) this.layer.replaceChild(e, old);
    this.live.set(i, e);
  }

  // element returns item i's element when it is in the DOM.
  element(i) { return this.live.get(i) || null; }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  maxScroll() { return Math.max(0, this.spacerPx - this.viewH); }
  maxVirtual() { return Math.max(0, this.totalPx - this.viewH); }

  // virtualTop is the scroll offset in content pixels.
  virtualTop() {
    const ms = this.maxScroll();
    if (ms <= 0) return 0;
    return Math.min(this.scroller.scrollTop, ms) * (this.maxVirtual() / ms);
  }

  setVirtualTop(v) {
    const mv = this.maxVirtual();
    const target = mv <= 0 ? 0 : Math.max(0, Math.min(v, mv)) * (this.maxScroll() / mv);
    this.scroller.scrollTop = target;
    this.render();
  }

  // range is [first, last] of the items at least partly on screen.
  range() {
    if (this.n === 0) return [0, -1];
    const vt = this.virtualTop();
    const first = this.itemAt(vt / this.rowH);
    const last = this.itemAt((vt + this.viewH - 1) / this.rowH);
    return [first, last];
  }

  itemAt(u) {
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.top[mid] <= u) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  render() {
    const t0 = performance.now();
    this.draw();
    const ms = performance.now() - t0;
    const st = this.stats;
    st.renders++;
    st.ms += ms;
    if (ms > st.maxMs) st.maxMs = ms;
    if (st.times.length < 4096) st.times.push(ms);
  }

  draw() {
    // Read every scroll offset before touching the DOM: a read after a
    // change would force a synchronous layout of the new rows.
    const sx = this.scroller.scrollLeft;
    const [first, last] = this.range();
    const lo = Math.max(0, first - this.overscan);
    const hi = Math.min(this.n - 1, last + this.overscan);
    for (const [i, e] of this.live) {
      if (i < lo || i > hi) {
        e.remove();
        this.live.delete(i);
      }
    }
    const vt = this.virtualTop();
    for (let i = lo; i <= hi; i++) {
      let e = this.live.get(i);
      if (!e) {
        e = this.renderItem(i);
        e.dataset.item = String(i);
        e.style.height = (this.top[i + 1] - this.top[i]) * this.rowH + 'px';
        if (e.parentNode !== this.layer) this.layer.appendChild(e);
        this.live.set(i, e);
      }
      e.style.transform = `translateY(${Math.round(this.top[i] * this.rowH - vt)}px)`;
    }
    if (sx !== this.sx) {
      this.sx = sx;
      this.layer.style.setProperty('--sx', -sx + 'px');
    }
    if (this.onRender) this.onRender(first, last);
  }

  // scrollTo brings item i into view: 'nearest' scrolls as little as
  // possible keeping margin units around it, 'center' centres it, 'top'
  // puts it first.
  scrollTo(i, how = 'nearest', margin = 3) {
    if (i < 0 || i >= this.n) return;
    const y0 = this.top[i] * this.rowH;
    const y1 = this.top[i + 1] * this.rowH;
    const vt = this.virtualTop();
    const m = Math.min(margin * this.rowH, this.viewH / 3);
    if (how === 'top') this.setVirtualTop(y0 - m);
    else if (how === 'center') this.setVirtualTop((y0 + y1) / 2 - this.viewH / 2);
    else if (y0 < vt + m) this.setVirtualTop(y0 - m);
    else if (y1 > vt + this.viewH - m) this.setVirtualTop(y1 - this.viewH + m);
  }

  // page returns how many units fit on screen.
  pageUnits() { return Math.max(1, Math.floor(this.viewH / this.rowH)); }
}
