// The lessons' web site in the browser: the math (KaTeX, from the site's
// own copy), the live figures, the search, the theme and the table of
// contents on a small screen. No request leaves the site: every page
// works from a file or a static server, with no internet.
(function () {
	'use strict';

	// Math: $...$ and $$...$$ in the text, as Jupyter writes them; code,
	// outputs and scripts are left alone (auto-render skips pre and code).
	function renderMath() {
		if (typeof renderMathInElement !== 'function') return;
		renderMathInElement(document.body, {
			delimiters: [
				{ left: '$$', right: '$$', display: true },
				{ left: '$', right: '$', display: false },
				{ left: '\\[', right: '\\]', display: true },
				{ left: '\\(', right: '\\)', display: false },
			],
			ignoredClasses: ['search-results', 'plots-explore-caption', 'live-controls'],
			throwOnError: false,
		});
	}

	// Theme: the button switches between light and dark and remembers it.
	function setupTheme() {
		var btn = document.querySelector('.theme-toggle');
		if (!btn) return;
		var show = function () {
			var dark = document.documentElement.dataset.theme === 'dark';
			btn.setAttribute('aria-pressed', String(dark));
		};
		btn.addEventListener('click', function () {
			var t = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
			document.documentElement.dataset.theme = t;
			try { localStorage.setItem('lessons-theme', t); } catch (e) {}
			show();
		});
		show();
	}

	// Contents: on a small screen the table of contents is a drawer.
	function setupTOC() {
		var btn = document.querySelector('.toc-toggle');
		var toc = document.getElementById('toc');
		if (!btn || !toc) return;
		var set = function (open) {
			toc.classList.toggle('open', open);
			btn.setAttribute('aria-expanded', String(open));
		};
		btn.addEventListener('click', function () { set(!toc.classList.contains('open')); });
		toc.addEventListener('click', function (e) { if (e.target.closest('a')) set(false); });
		document.addEventListener('keydown', function (e) { if (e.key === 'Escape') set(false); });
	}

	// Search: every word of the query (accents and case ignored) must be in
	// a section; sections whose heading holds them come first.
	function fold(s) {
		return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
	}
	function setupSearch() {
		var input = document.getElementById('search-input');
		var list = document.getElementById('search-results');
		var index = window.LESSONS_SEARCH;
		if (!input || !list || !index) return;
		var folded = index.map(function (e) { return { h: fold(e.h + ' ' + e.t), x: fold(e.x) }; });
		var run = function () {
			var words = fold(input.value).split(/\s+/).filter(function (w) { return w.length > 0; });
			list.textContent = '';
			if (words.length === 0) { list.hidden = true; return; }
			var hits = [];
			index.forEach(function (e, i) {
				var f = folded[i], score = 0;
				for (var j = 0; j < words.length; j++) {
					var inH = f.h.indexOf(words[j]) >= 0, inX = f.x.indexOf(words[j]) >= 0;
					if (!inH && !inX) return;
					score += (inH ? 10 : 0) + (inX ? 1 : 0);
				}
				hits.push({ e: e, i: i, score: score });
			});
			hits.sort(function (a, b) { return b.score - a.score || a.i - b.i; });
			if (hits.length === 0) {
				var li = document.createElement('li');
				li.textContent = 'No section holds every word of "' + input.value.trim() + '".';
				list.appendChild(li);
			}
			hits.slice(0, 20).forEach(function (h) {
				var li = document.createElement('li');
				var a = document.createElement('a');
				a.href = h.e.p + (h.e.a ? '#' + h.e.a : '');
				a.textContent = h.e.h;
				li.appendChild(a);
				var where = document.createElement('div');
				where.className = 'where';
				where.textContent = h.e.t;
				li.appendChild(where);
				var at = folded[h.i].x.indexOf(words[0]);
				if (at >= 0) {
					var snip = document.createElement('div');
					var from = Math.max(0, at - 60);
					snip.appendChild(document.createTextNode((from > 0 ? '…' : '') + h.e.x.slice(from, at)));
					var m = document.createElement('mark');
					m.textContent = h.e.x.slice(at, at + words[0].length);
					snip.appendChild(m);
					snip.appendChild(document.createTextNode(h.e.x.slice(at + words[0].length, at + 100) + '…'));
					li.appendChild(snip);
				}
				list.appendChild(li);
			});
			list.hidden = false;
		};
		input.addEventListener('input', run);
		input.addEventListener('keydown', function (e) {
			if (e.key === 'Escape') { input.value = ''; run(); }
			if (e.key === 'Enter') { var a = list.querySelector('a'); if (a) a.click(); }
		});
		document.addEventListener('click', function (e) { if (!e.target.closest('.search')) list.hidden = true; });
	}

	// Live figures: the still figure of the committed notebook, and above
	// its caption one row per control. Every position of every control was
	// drawn when the site was built, by the cell's own Go code; moving a
	// control shows that frame, with no kernel.
	function setupLive() {
		document.querySelectorAll('p.plots-explore-caption[data-live]').forEach(function (cap, n) {
			var data = document.getElementById(cap.dataset.live);
			if (!data) return;
			var fig = JSON.parse(data.textContent);
			var img = null;
			for (var el = cap; el && !img; el = el.parentElement) {
				for (var s = el.nextElementSibling; s && !img; s = s.nextElementSibling) {
					img = s.tagName === 'IMG' ? s : s.querySelector('img');
				}
			}
			if (!img) return;
			var stillAlt = img.alt;
			var pos = fig.controls.map(function (c) { return c.start; });
			var startValues = cap.dataset.values;
			var box = document.createElement('div');
			box.className = 'live-controls';
			box.setAttribute('role', 'group');
			box.setAttribute('aria-label', 'Controls of the live figure');
			var outputs = [];
			var valuesOf = function () {
				return fig.controls.map(function (c, i) { return c.name + ' = ' + c.labels[pos[i]]; }).join(', ');
			};
			var show = function () {
				var idx = 0;
				fig.controls.forEach(function (c, i) { idx = idx * c.labels.length + pos[i]; });
				var f = fig.frames[fig.index[idx]];
				var values = valuesOf();
				cap.dataset.values = values;
				cap.dataset.frame = String(idx);
				if (f.error) {
					cap.textContent = f.error;
					cap.classList.add('live-error');
					img.style.visibility = 'hidden';
				} else {
					cap.textContent = f.caption;
					cap.classList.remove('live-error');
					img.src = f.src;
					img.alt = f.alt ? f.alt : values === startValues ? stillAlt :
						stillAlt + ' Shown now at ' + values + ' instead of ' + startValues + ': ' + f.caption;
					img.style.visibility = '';
				}
				outputs.forEach(function (o, i) { if (o) o.textContent = fig.controls[i].labels[pos[i]]; });
			};
			fig.controls.forEach(function (c, i) {
				var row = document.createElement('div');
				row.className = 'live-control';
				var id = cap.dataset.live + '-' + i;
				var label = document.createElement('label');
				label.htmlFor = id;
				label.textContent = c.name;
				row.appendChild(label);
				var input;
				if (c.choice) {
					outputs.push(null);
					input = document.createElement('select');
					c.labels.forEach(function (l, j) {
						var o = document.createElement('option');
						o.value = String(j);
						o.textContent = l;
						input.appendChild(o);
					});
					// Arrows, Home and End move the choice, as on a slider.
					input.addEventListener('keydown', function (e) {
						var j = input.selectedIndex, last = c.labels.length - 1;
						var to = { ArrowLeft: j - 1, ArrowUp: j - 1, ArrowRight: j + 1, ArrowDown: j + 1, Home: 0, End: last }[e.key];
						if (to === undefined || e.altKey) return;
						e.preventDefault();
						to = Math.max(0, Math.min(last, to));
						if (to !== j) { input.selectedIndex = to; pos[i] = to; show(); }
					});
				} else {
					var out = document.createElement('output');
					out.htmlFor = id;
					outputs.push(out);
					row.appendChild(out);
					var lo = document.createElement('span');
					lo.className = 'end';
					lo.textContent = c.labels[0];
					lo.setAttribute('aria-hidden', 'true');
					row.appendChild(lo);
					input = document.createElement('input');
					input.type = 'range';
					input.min = '0';
					input.max = String(c.labels.length - 1);
					input.step = '1';
				}
				input.id = id;
				input.value = String(c.start);
				input.dataset.control = c.name;
				var move = function () {
					pos[i] = +input.value;
					if (!c.choice) input.setAttribute('aria-valuetext', c.name + ' = ' + c.labels[pos[i]]);
					show();
				};
				input.addEventListener('input', move);
				input.addEventListener('change', move);
				if (!c.choice) input.setAttribute('aria-valuetext', c.name + ' = ' + c.labels[c.start]);
				row.appendChild(input);
				if (!c.choice) {
					var hi = document.createElement('span');
					hi.className = 'end';
					hi.textContent = c.labels[c.labels.length - 1];
					hi.setAttribute('aria-hidden', 'true');
					row.appendChild(hi);
				}
				box.appendChild(row);
			});
			var hint = document.createElement('p');
			hint.className = 'live-hint';
			hint.textContent = 'Every position is drawn ahead: move a control with the mouse, or focus it and use the arrow keys, Home and End.';
			box.appendChild(hint);
			cap.parentElement.insertBefore(box, cap);
			cap.dataset.liveReady = '1';
			show();
		});
	}

	function start() {
		setupTheme();
		setupTOC();
		setupSearch();
		setupLive();
		renderMath();
	}
	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
	else start();
})();
