// dom.js builds elements. Every node is made with createElement and every
// piece of text is set with textContent or a text node: nothing from a diff,
// a comment or the server is ever parsed as HTML.

// el returns a new <tag>. props: class, text, title, dataset (object),
// on<event> (a listener), anything else becomes an attribute. kids are
// nodes or strings (strings become text nodes); null and false are skipped.
export function el(tag, props, ...kids) {
  const e = document.createElement(tag);
  if (props) {
    for (const k of Object.keys(props)) {
      const v = props[k];
      if (v == null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(e, kids);
  return e;
}

// append adds kids (nodes, strings, arrays of them) to parent.
export function append(parent, kids) {
  for (const c of kids) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(parent, c);
    else if (typeof c === 'string') parent.appendChild(document.createTextNode(c));
    else parent.appendChild(c);
  }
}

// clear removes every child of e.
export function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
}

// plural is "1 file" / "2 files".
export function plural(n, one, many) {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : (many || one + 's')}`;
}
