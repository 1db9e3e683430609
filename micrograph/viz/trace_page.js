// The backward trace page: replays the engine's steps on the diagram (see trace_page.py).
// Position k shows the state after k steps; position 0 is "before backward".
// Every text from the data goes through textContent: nothing in it can become markup.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("trace-data").textContent);
  const steps = data.steps;
  const failed = data.error !== null && data.error.step <= steps.length;
  const last = steps.length + (failed ? 1 : 0);
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const svg = document.querySelector("#graph svg");

  // -- the diagram: groups by the ids graph_json gave (their <title>) --------------------
  const nodeEls = {}, edgeEls = {}, gradText = {};
  if (svg) {
    for (const g of svg.querySelectorAll("g.node")) {
      const id = g.querySelector("title").textContent;
      nodeEls[id] = g;
      for (const t of g.querySelectorAll("text")) {
        if (t.textContent.startsWith("grad ")) gradText[id] = t;
      }
    }
    for (const g of svg.querySelectorAll("g.edge")) edgeEls[g.querySelector("title").textContent] = g;
  }
  if (svg) {  // room below the bottom row, for the callout under a leaf
    const vb = svg.viewBox.baseVal;
    svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.width} ${vb.height + 28}`);
    svg.setAttribute("height", `${parseFloat(svg.getAttribute("height")) + 28}pt`);
  }
  const overlay = svg ? document.createElementNS(SVGNS, "g") : null;
  if (overlay) {
    overlay.setAttribute("id", "trace-overlay");
    svg.querySelector("g.graph").appendChild(overlay);
  }

  // -- words ------------------------------------------------------------------------------
  const fmt = (x) => {
    if (x === null || x === undefined) return "None";
    if (typeof x === "string") return x;
    const s = Number(x.toPrecision(6)).toString();
    return s.includes("e") ? x.toPrecision(6) : s;
  };
  const nodeName = (ref) => {  // its label, else the number it made: unnamed nodes stay apart
    const n = data.nodes[ref];
    if (n.label) return `${n.name} (${n.label})`;
    const made = n.value !== null ? data.data[n.value] : undefined;
    return made === undefined || made === null ? n.name : `${n.name} (= ${fmt(made)})`;
  };
  // the page's sentences, in the run's language (trace_page.py SENTENCES): "{field}" filled in
  const say = (key, fields = {}) => data.say[key].replace(/\{(\w+)\}/g, (m, f) => (f in fields ? String(fields[f]) : m));
  const joined = (items) => (items.length ? items.reduce((first, next) => say("list", { first, next })) : "");
  const writer = (by) => (by === "assignment" ? say("by_assignment") : by);

  function li(list, text, cls) {
    const item = document.createElement("li");
    item.textContent = text;
    if (cls) item.className = cls;
    list.appendChild(item);
  }

  function label(x, y, text, cls) {
    const t = document.createElementNS(SVGNS, "text");
    t.setAttribute("x", x.toFixed(1));
    t.setAttribute("y", y.toFixed(1));
    t.setAttribute("class", cls);
    t.textContent = text;
    overlay.appendChild(t);
    return t;
  }

  function callout(x, y, text) {  // a centred label on a card, above whatever it overlaps
    const t = label(x, y, text, "received");
    t.setAttribute("text-anchor", "middle");
    const b = t.getBBox();
    const card = document.createElementNS(SVGNS, "rect");
    for (const [k, v] of [["x", b.x - 3], ["y", b.y - 2], ["width", b.width + 6], ["height", b.height + 4], ["rx", 3]]) {
      card.setAttribute(k, String(v));
    }
    card.setAttribute("class", "card");
    overlay.insertBefore(card, t);
  }

  // -- state after k steps ------------------------------------------------------------------
  function stateAt(k) {
    const pending = Object.assign({}, data.pass ? data.pass.dependencies : {});
    const grads = {}, freed = new Set(), flowed = {}, ran = new Set();
    for (let i = 0; i < Math.min(k, steps.length); i++) {
      const s = steps[i];
      ran.add(s.node);
      for (const [ref, count] of s.waiting) pending[ref] = count;
      if (s.wrote && s.wrote.value) grads[s.wrote.value] = s.wrote;
      if (s.released) freed.add(s.node);
      for (const e of s.sent) if (e.edge && e.grad !== null) flowed[`${e.edge}->${data.nodes[s.node].op}`] = [e.grad, i];
    }
    return { pending, grads, freed, flowed, ran };
  }

  function paintDiagram(k, st) {
    if (!svg) return;
    overlay.replaceChildren();
    for (const g of Object.values(nodeEls)) g.classList.remove("running", "failing", "filled", "freed", "waiting");
    for (const g of Object.values(edgeEls)) g.classList.remove("flowed", "current");
    for (const [id, t] of Object.entries(gradText)) setGradText(id, t, data.initial[id] || "grad None");
    for (const [vid, w] of Object.entries(st.grads)) {
      if (gradText[vid]) setGradText(vid, gradText[vid], `grad ${fmt(w.grad)}`);
      if (nodeEls[vid]) nodeEls[vid].classList.add("filled");
    }
    for (const ref of st.freed) {
      const op = data.nodes[ref].op;
      if (op && nodeEls[op]) nodeEls[op].classList.add("freed");
    }
    for (const [title, [grad, i]] of Object.entries(st.flowed)) {
      const g = edgeEls[title];
      if (!g) continue;
      g.classList.add("flowed");
      if (i === k - 1) g.classList.add("current");
      const path = g.querySelector("path");
      const mid = path.getPointAtLength(path.getTotalLength() / 2);
      label(mid.x + 4, mid.y + 4, `\u2190 ${fmt(grad)}`, i === k - 1 ? "edge-grad current" : "edge-grad");
    }
    const current = k === 0 ? null : k <= steps.length ? steps[k - 1].node : data.error.node;
    if (current) {
      const n = data.nodes[current];
      const cls = k > steps.length ? "failing" : "running";
      for (const id of [n.op, n.value]) if (id && nodeEls[id]) nodeEls[id].classList.add(cls);
      const s = k <= steps.length ? steps[k - 1] : null;
      const at = [n.op, n.value].find((id) => id && nodeEls[id]);  // beside the op that runs (a leaf: its box)
      if (at) nodeEls[at].scrollIntoView({ block: "nearest", inline: "nearest" });
      if (s && at && s.received !== null) {
        const box = nodeEls[at].getBBox();
        const text = s.contributions > 1
          ? say("received_sum", { grad: fmt(s.received), count: s.contributions })
          : say("received", { grad: fmt(s.received) });
        // an op: on the edge up to the value it made (the gradient of that value); a leaf: below it
        if (at === n.op) callout(box.x + box.width / 2, box.y - 9, text);
        else callout(box.x + box.width / 2, box.y + box.height + 16, text);
      }
    }
    for (const [ref, count] of Object.entries(st.pending)) {
      const n = data.nodes[ref];
      const id = n.op || n.value;
      if (count > 0 && !st.ran.has(ref) && id && nodeEls[id]) nodeEls[id].dataset.waits = String(count);
    }
  }

  function setGradText(id, t, text) {
    if (t.textContent === text) return;
    const box = nodeEls[id].querySelector("polygon, path").getBBox();
    t.textContent = text;
    t.setAttribute("text-anchor", "middle");
    t.setAttribute("x", (box.x + box.width / 2).toFixed(2));
  }

  // -- the side panel -------------------------------------------------------------------------
  function paintPanel(k, st) {
    const what = $("what"), why = $("why"), sends = $("sends");
    sends.replaceChildren();
    why.textContent = "";
    what.classList.remove("error");
    if (k === 0) {
      const roots = data.pass ? data.pass.roots.map((r) => say("root", { node: nodeName(r.node), grad: fmt(r.grad) })) : [];
      what.textContent = data.pass
        ? say("before", { kind: data.pass.kind, roots: joined(roots) })
        : say("no_start");
      why.textContent = say("rule");
    } else if (k > steps.length) {
      what.textContent = say("fails", { node: nodeName(data.error.node), error: `${data.error.type}: ${data.error.message}` });
      what.classList.add("error");
    } else {
      describeStep(steps[k - 1], k, what, why, sends);
    }
    const ready = k === 0 ? (data.pass ? data.pass.ready : []) : k <= steps.length ? steps[k - 1].ready : [];
    const list = $("ready");
    list.replaceChildren();
    for (const ref of ready) li(list, nodeName(ref));
    if (!ready.length) li(list, k >= steps.length ? say("done") : say("empty"), "muted");
    const deps = $("deps");
    deps.replaceChildren();
    for (const [ref, count] of Object.entries(st.pending)) {
      if (count > 0 && !st.ran.has(ref)) li(deps, say(count === 1 ? "waits_one" : "waits_many", { node: nodeName(ref), count }));
    }
    if (!deps.children.length) li(deps, say("none"), "muted");
    const grads = $("grads");
    grads.replaceChildren();
    for (let i = 0; i < Math.min(k, steps.length); i++) {
      const w = steps[i].wrote;
      if (w) li(grads, say("grad_line", { value: w.label || say("a_value"), grad: fmt(w.grad), by: writer(w.by) }), i === k - 1 ? "new" : "");
    }
    if (!grads.children.length) li(grads, say("none_yet"), "muted");
  }

  function describeStep(s, k, what, why, sends) {
    const name = nodeName(s.node);
    if (s.grad === null) {
      what.textContent = say("skipped", { node: name });
    } else {
      const sum = s.contributions > 1 ? say("sum", { count: s.contributions }) : "";
      const hooked = s.received !== null && s.grad !== s.received ? say("hooked", { grad: fmt(s.grad) }) : "";
      what.textContent = say("runs", { node: name, grad: fmt(s.received), sum, hooked });
    }
    why.textContent = k === 1 ? say("first") : say("why");
    // a retained gradient is written before the node's apply sends anything (an AccumulateGrad sends nothing)
    if (s.wrote) li(sends, say("writes", { value: s.wrote.label || say("its_value"), grad: fmt(s.wrote.grad), by: writer(s.wrote.by) }), "new");
    for (const e of s.sent) {
      if (e.to === null) li(sends, say("constant"), "muted");
      else li(sends, say("sends", { node: nodeName(e.to), grad: fmt(e.grad) }));
    }
    if (s.released) li(sends, say("frees"), "freed");
  }

  // -- controls -------------------------------------------------------------------------------
  let position = 0, timer = null;
  const slider = $("slider");
  slider.max = String(last);

  function show(k) {
    position = Math.max(0, Math.min(last, k));
    slider.value = String(position);
    $("counter").textContent = say("counter", { position, last });
    const st = stateAt(position);
    paintDiagram(position, st);
    paintPanel(position, st);
    document.body.dataset.position = String(position);
    $("prev").disabled = position === 0;
    $("next").disabled = position === last;
  }

  function play() {
    if (timer !== null) { clearInterval(timer); timer = null; $("play").textContent = say("play"); return; }
    if (position === last) show(0);
    $("play").textContent = say("pause");
    timer = setInterval(() => { if (position >= last) play(); else show(position + 1); }, 900);
  }

  $("prev").addEventListener("click", () => show(position - 1));
  $("next").addEventListener("click", () => show(position + 1));
  $("play").addEventListener("click", play);
  $("zoom").addEventListener("click", () => {
    const whole = $("graph").classList.toggle("whole");
    $("zoom").textContent = whole ? say("fit") : say("whole");
  });
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target === slider) return;  // the slider moves itself with the arrows
    if (e.key === "ArrowRight") { show(position + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { show(position - 1); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
  });
  const notes = [];
  if (data.problem) notes.push(say("no_diagram", { problem: data.problem }));
  if (data.total > steps.length) notes.push(say("capped", { shown: steps.length, total: data.total }));
  $("notice").textContent = notes.join(" ");
  show(0);
})();
