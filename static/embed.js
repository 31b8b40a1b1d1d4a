// Sprout for course pages: one script tag, no build step, no special headers
// (docs/embedding.md). It registers three custom elements:
//
//   <sprout-snippet>  after a <pre>/<code> block: makes it editable and runnable (Run, output below)
//   <sprout-console>  a whole console (editor, output, explain view), sized by the host's CSS
//   <sprout-lesson>   a lesson in Sprout's lesson Markdown, fetched from the host page's site
//
// Everything that runs Sprout lives in iframes of `embed.html` on the origin this script came
// from: the wasm, the shell worker and any IndexedDB data stay on Sprout's origin, so the host
// page needs neither COOP/COEP headers nor CORS. The host talks to the iframes with postMessage
// (web/src/page/embed/bridge.rs lists the messages). Nothing loads until an element scrolls into view
// or its Run button is pressed, and the engine always runs in a worker, off the host's thread.
(() => {
  'use strict';
  if (window.customElements === undefined || customElements.get('sprout-snippet')) return;

  const script = document.currentScript;
  const base = new URL('.', script && script.src ? script.src : location.href);
  const sproutOrigin = base.origin;
  const names = /[^A-Za-z0-9_.-]/g;

  const words = {
    en: { run: 'Run', running: 'Running…', loading: 'Starting Sprout…', edit: 'Edit the code above, then Run',
      earlier: 'ran first (an earlier snippet of the same database)', lesson: 'This lesson could not be loaded:' },
    zh: { run: '运行', running: '运行中…', loading: '正在启动 Sprout…', edit: '可编辑上面的代码，然后运行',
      earlier: '已先运行（同一数据库中较早的代码片段）', lesson: '无法加载这一课：' },
  };
  function langOf(el) {
    const holder = el.closest('[lang]');
    const lang = (el.getAttribute('lang') || (holder && holder.getAttribute('lang')) || 'en').toLowerCase();
    return lang.startsWith('zh') ? 'zh' : 'en';
  }
  function themeOf(el) {
    const own = el.getAttribute('theme');
    if (own === 'light' || own === 'dark') return own;
    const holder = el.closest('[data-theme]');
    const theirs = holder && holder.getAttribute('data-theme');
    if (theirs === 'light' || theirs === 'dark') return theirs;
    return 'auto';
  }
  // A database name as the Sprout page accepts it (database_choice.rs: 1–64 of A-Z a-z 0-9 _ - .).
  function databaseName(name) {
    const cleaned = String(name || '').replace(names, '_').slice(0, 64);
    return cleaned || 'snippets';
  }
  function isUrl(dataset) {
    return /[/:]|\.json$/i.test(dataset);
  }
  function frameUrl(options) {
    const url = new URL('embed.html', base);
    for (const [key, value] of Object.entries(options)) {
      if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, value);
    }
    return url.href;
  }

  // One embed.html iframe: its requests and their answers, its events.
  class Frame {
    constructor(options, visible) {
      this.iframe = document.createElement('iframe');
      this.iframe.src = frameUrl(options);
      this.iframe.title = 'Sprout';
      this.iframe.setAttribute('loading', 'eager');
      if (!visible) {
        this.iframe.setAttribute('aria-hidden', 'true');
        this.iframe.tabIndex = -1;
        this.iframe.style.cssText = 'position:absolute;width:1px;height:1px;border:0;left:-9999px;top:0;opacity:0';
      } else {
        this.iframe.style.cssText = 'display:block;width:100%;height:100%;border:0';
      }
      this.next = 1;
      this.pending = new Map();
      this.listeners = [];
      this.ready = new Promise((resolve) => { this.markReady = resolve; });
      this.onMessage = (event) => {
        if (event.source !== this.iframe.contentWindow || event.origin !== sproutOrigin) return;
        const message = event.data;
        if (!message || typeof message.sprout !== 'string') return;
        if (message.sprout === 'ready') {
          this.database = message.database;
          this.markReady();
        } else if (message.sprout === 'done') {
          const answer = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (answer) answer(message);
        } else {
          for (const listener of this.listeners) listener(message);
        }
      };
      window.addEventListener('message', this.onMessage);
    }
    // Sends a request once the page has started; resolves with its `done` answer.
    async request(message) {
      await this.ready;
      const id = this.next++;
      return new Promise((resolve) => {
        this.pending.set(id, resolve);
        this.iframe.contentWindow.postMessage({ ...message, id }, sproutOrigin);
      });
    }
    // A dataset by name, or a dataset file's URL fetched here, on the host's own origin.
    async loadDataset(dataset) {
      if (!isUrl(dataset)) return this.request({ sprout: 'load', name: dataset });
      let json;
      try {
        const response = await fetch(new URL(dataset, document.baseURI));
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        json = await response.text();
      } catch (e) {
        return { isError: true, output: `dataset ${dataset}: ${e.message}` };
      }
      return this.request({ sprout: 'load', name: dataset, json });
    }
    close() {
      window.removeEventListener('message', this.onMessage);
      this.iframe.remove();
    }
  }

  function dispatch(el, name, detail) {
    el.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }
  // `ran` after every command, `result` when it returned documents.
  function tellRan(el, code, answer) {
    const detail = { code, output: answer.output, isError: !!answer.isError, error: answer.error || null,
      result: answer.result || null };
    el.setAttribute('data-state', answer.isError ? 'error' : 'ran');
    dispatch(el, 'ran', detail);
    if (answer.result) dispatch(el, 'result', detail);
  }

  const styles = `
    :host { display: block; margin: .4rem 0 1rem; font-family: system-ui, sans-serif; font-size: .9rem;
      --sprout-accent: #2f7d4f; --sprout-bg: #f6f8f6; --sprout-ink: #1d2b22; --sprout-muted: #5d6b62;
      --sprout-border: #d5ddd8; --sprout-error: #b42318; }
    :host([data-theme-resolved=dark]) { --sprout-accent: #5fbf85; --sprout-bg: #18201b; --sprout-ink: #e2ebe5;
      --sprout-muted: #97a89d; --sprout-border: #2f3b33; --sprout-error: #ff8a80; }
    .bar { display: flex; gap: .6rem; align-items: center; }
    button { font: inherit; padding: .3rem .9rem; border: 0; border-radius: 6px; background: var(--sprout-accent);
      color: white; cursor: pointer; }
    button:disabled { opacity: .55; cursor: default; }
    .hint { color: var(--sprout-muted); font-size: .8rem; }
    pre { margin: .5rem 0 0; padding: .6rem .8rem; border: 1px solid var(--sprout-border); border-radius: 6px;
      background: var(--sprout-bg); color: var(--sprout-ink); white-space: pre-wrap; overflow-x: auto;
      font-family: ui-monospace, monospace; font-size: .85rem; max-height: 24rem; overflow-y: auto; }
    pre:empty { display: none; }
    pre.error { color: var(--sprout-error); }
    .note { color: var(--sprout-muted); font-style: italic; }
    .frame { height: 100%; }
    .problem { padding: .6rem .8rem; border-left: 3px solid var(--sprout-error); color: var(--sprout-ink);
      background: var(--sprout-bg); white-space: pre-wrap; font-family: ui-monospace, monospace; }
  `;
  function shadowOf(el, extra) {
    const root = el.shadowRoot || el.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${styles}${extra || ''}</style>`;
    return root;
  }
  function resolveTheme(el) {
    let theme = themeOf(el);
    if (theme === 'auto') theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    el.setAttribute('data-theme-resolved', theme);
  }

  // Snippets of one database name share one invisible bridge page: their code runs in page order.
  const groups = new Map();
  function groupOf(name, lang) {
    let group = groups.get(name);
    if (!group) {
      group = { name, frame: null, ran: new WeakSet(), prepared: new WeakSet(), datasets: new Set(),
        chain: Promise.resolve(), lang };
      groups.set(name, group);
    }
    return group;
  }
  function frameOf(group) {
    if (!group.frame) {
      group.frame = new Frame({ view: 'bridge', db: group.name, storage: 'memory', lang: group.lang }, false);
      document.body.appendChild(group.frame.iframe);
    }
    return group.frame;
  }

  class SproutSnippet extends HTMLElement {
    connectedCallback() {
      if (this.code) return;
      const block = this.previousElementSibling;
      if (!block) return;
      this.code = block.matches('pre') ? (block.querySelector('code') || block) : block;
      const lang = langOf(this);
      this.words = words[lang];
      this.group = groupOf(databaseName(this.getAttribute('database')), lang);
      resolveTheme(this);
      if (!this.hasAttribute('readonly')) {
        this.code.setAttribute('contenteditable', 'plaintext-only');
        if (this.code.contentEditable !== 'plaintext-only') this.code.setAttribute('contenteditable', 'true');
        this.code.setAttribute('spellcheck', 'false');
      }
      const root = shadowOf(this);
      root.innerHTML += `<div class="bar"><button part="run" type="button"></button><span class="hint" part="hint"></span></div>
        <pre part="output" aria-live="polite"></pre>`;
      this.button = root.querySelector('button');
      this.hint = root.querySelector('.hint');
      this.output = root.querySelector('pre');
      this.button.textContent = this.words.run;
      this.hint.textContent = this.hasAttribute('readonly') ? '' : this.words.edit;
      this.button.addEventListener('click', () => this.run());
      this.code.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.run(); }
      });
      // Start the database's page once the snippet is about to be seen, so Run answers at once.
      if ('IntersectionObserver' in window) {
        this.observer = new IntersectionObserver((entries) => {
          if (entries.some((e) => e.isIntersecting)) { this.observer.disconnect(); frameOf(this.group); }
        }, { rootMargin: '200px' });
        this.observer.observe(this);
      }
    }
    disconnectedCallback() {
      if (this.observer) this.observer.disconnect();
    }
    // The snippets of the same database, in page order.
    siblings() {
      return [...document.querySelectorAll('sprout-snippet')]
        .filter((s) => s.group === this.group);
    }
    // The dataset and the hidden setup code, once per snippet, before its first run.
    async prepare(frame) {
      if (this.group.prepared.has(this)) return;
      this.group.prepared.add(this);
      const dataset = this.getAttribute('dataset');
      if (dataset && !this.group.datasets.has(dataset)) {
        this.group.datasets.add(dataset);
        const answer = await frame.loadDataset(dataset);
        if (answer.isError) this.show(answer.output, true);
      }
      const setup = this.getAttribute('setup');
      if (setup) {
        const answer = await frame.request({ sprout: 'run', input: setup });
        if (answer.isError) this.show(`setup: ${answer.output}`, true);
      }
    }
    show(text, isError, note) {
      this.output.textContent = text;
      this.output.classList.toggle('error', !!isError);
      if (note) {
        const line = document.createElement('div');
        line.className = 'note';
        line.textContent = note;
        this.output.prepend(line);
      }
    }
    // Runs this snippet's code; earlier snippets of the same database that have not run yet run
    // first, so the data is what the page's order builds.
    run() {
      const group = this.group;
      this.button.disabled = true;
      this.button.textContent = this.words.running;
      if (!group.frame || !group.frame.database) this.show(this.words.loading, false);
      const done = group.chain.then(async () => {
        const frame = frameOf(group);
        for (const snippet of this.siblings()) {
          if (snippet === this) break;
          if (group.ran.has(snippet)) continue;
          await snippet.prepare(frame);
          const code = snippet.code.innerText;
          const answer = await frame.request({ sprout: 'run', input: code });
          group.ran.add(snippet);
          snippet.show(answer.output, answer.isError, snippet.words.earlier);
          tellRan(snippet, code, answer);
        }
        await this.prepare(frame);
        const code = this.code.innerText;
        const answer = await frame.request({ sprout: 'run', input: code });
        group.ran.add(this);
        this.show(answer.output, answer.isError);
        tellRan(this, code, answer);
        return answer;
      });
      group.chain = done.catch(() => {});
      return done.finally(() => {
        this.button.disabled = false;
        this.button.textContent = this.words.run;
      });
    }
  }

  // A visible embed.html page inside the element, created when it scrolls into view.
  class FramedElement extends HTMLElement {
    connectedCallback() {
      if (this.root) return;
      resolveTheme(this);
      this.root = shadowOf(this, ':host { height: 28rem; margin: 1rem 0; border: 1px solid var(--sprout-border); border-radius: 8px; overflow: hidden; }'
        + ' .problem:empty { display: none; }');
      this.root.innerHTML += '<div class="problem" role="alert" part="error"></div><div class="frame" part="frame"></div>';
      this.problem = this.root.querySelector('.problem');
      const start = () => this.startFrame();
      if ('IntersectionObserver' in window && !this.hasAttribute('eager')) {
        this.observer = new IntersectionObserver((entries) => {
          if (entries.some((e) => e.isIntersecting)) { this.observer.disconnect(); start(); }
        }, { rootMargin: '200px' });
        this.observer.observe(this);
      } else {
        start();
      }
    }
    disconnectedCallback() {
      if (this.observer) this.observer.disconnect();
      if (this.frame) { this.frame.close(); this.frame = null; this.root = null; }
    }
    startFrame() {
      const persist = this.hasAttribute('persist');
      const options = { ...this.frameOptions(), db: databaseName(this.getAttribute('database') || 'console'),
        storage: persist ? undefined : 'memory', theme: themeOf(this), lang: langOf(this) };
      this.frame = new Frame(options, true);
      this.frame.listeners.push((message) => {
        if (message.sprout === 'ran') tellRan(this, message.input, message);
        if (message.sprout === 'solved') {
          this.setAttribute('data-solved', String((+this.getAttribute('data-solved') || 0) + 1));
          dispatch(this, 'solved', { lesson: message.lesson, exercise: message.exercise });
        }
      });
      this.root.querySelector('.frame').appendChild(this.frame.iframe);
      this.frame.ready.then(() => {
        this.setAttribute('data-state', 'ready');
        dispatch(this, 'ready', { database: this.frame.database });
        return this.afterReady(this.frame);
      });
    }
    frameOptions() { return {}; }
    async afterReady() {}
    // Runs code in the element's console, as if typed there.
    run(code) {
      if (!this.frame) this.startFrame();
      return this.frame.request({ sprout: 'run', input: code });
    }
  }

  class SproutConsole extends FramedElement {
    frameOptions() {
      const dataset = this.getAttribute('dataset');
      return { view: 'console', dataset: dataset && !isUrl(dataset) ? dataset : undefined,
        setup: this.getAttribute('setup') || undefined };
    }
    async afterReady(frame) {
      const dataset = this.getAttribute('dataset');
      if (dataset && isUrl(dataset)) {
        const answer = await frame.loadDataset(dataset);
        if (answer.isError) this.problem.textContent = answer.output;
      }
    }
  }

  class SproutLesson extends FramedElement {
    frameOptions() {
      const src = this.getAttribute('src');
      return { view: 'lesson', lesson: src ? undefined : this.getAttribute('lesson'),
        step: this.getAttribute('step') || undefined };
    }
    async afterReady(frame) {
      const src = this.getAttribute('src');
      if (!src) return;
      const url = new URL(src, document.baseURI);
      let markdown;
      try {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`HTTP ${response.status} for ${url.href}`);
        markdown = await response.text();
      } catch (e) {
        this.fail(e.message);
        return;
      }
      const file = url.pathname.split('/').pop() || 'lesson.md';
      const answer = await frame.request({ sprout: 'lesson', file, markdown });
      if (answer.isError) this.fail(answer.output);
      else dispatch(this, 'loaded', { lesson: answer.output });
    }
    fail(message) {
      this.problem.textContent = `${words[langOf(this)].lesson} ${message}`;
      this.setAttribute('data-state', 'error');
      dispatch(this, 'error', { message });
    }
  }

  customElements.define('sprout-snippet', SproutSnippet);
  customElements.define('sprout-console', SproutConsole);
  customElements.define('sprout-lesson', SproutLesson);
})();
