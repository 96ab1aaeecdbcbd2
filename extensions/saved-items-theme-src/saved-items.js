/*! Saved Items theme script; minified from extensions/saved-items-theme-src/saved-items.js */
/* Hand-written source of extensions/saved-items-theme/assets/saved-items.js (the platform's linter
 * counts the asset's raw bytes against 10 KB, so the asset is this file minified; tests/theme fails
 * when the two differ). Dependency-free ES2019; exposes only window.SavedItems.init().
 * Roots rendered by the blocks: [data-si=button] save button, [data-si=list] saved items,
 * [data-si=cards] card hearts. Config and strings come from their data-* attributes. */
(function (w, d) {
  'use strict';
  if (w.SavedItems) return;
  var GUEST = 'saved-items:guest';
  var lists = {}; // context -> { entityGid: item }: the customer's list, or the guest saves
  var loads = {}; // context -> promise of the one paged /list read of this page
  var subs = [];
  var busy = {};
  var merging;

  function $(root, sel) { return [].slice.call(root.querySelectorAll(sel)); }
  function attr(el, k) { return el.getAttribute('data-' + k) || ''; }
  function el(tag, cls, text) {
    var e = d.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  function notify() { subs.forEach(function (f) { f(); }); }
  function list(ctx) { return lists[ctx] || (lists[ctx] = {}); }
  function saved(ctx, gid) { return !!list(ctx)[gid]; }
  function put(item, on) {
    if (on) list(item.context)[item.entityGid] = item;
    else delete list(item.context)[item.entityGid];
    notify();
  }

  function config(root) {
    var r = (w.Shopify && w.Shopify.routes && w.Shopify.routes.root) || '/';
    return {
      el: root,
      root: r,
      api: r + (attr(root, 'proxy') || 'apps/saved-items').replace(/^\/+|\/+$/g, '') + '/api/',
      ctx: attr(root, 'context') || 'wishlist',
      source: attr(root, 'source') || 'theme',
      customer: attr(root, 'customer'),
      t: function (k) { return attr(root, 't-' + k); }
    };
  }

  // One proxy call, answered with the envelope. Retried with exponential backoff, at most 3 tries,
  // only while the error says retryable (RATE_LIMITED, PLATFORM_UPSTREAM_ERROR, network).
  function call(c, op, data, n) {
    n = n || 1;
    var get = op === 'list';
    var opt = { method: get ? 'GET' : 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (!get) {
      opt.headers['Content-Type'] = 'application/json';
      opt.body = JSON.stringify(data);
    }
    return fetch(c.api + op + (get ? '?' + new URLSearchParams(data) : ''), opt).then(function (res) {
      return res.json().then(function (env) {
        if (typeof env.ok !== 'boolean' || !(env.ok || env.error)) throw env;
        return env;
      }).catch(function () {
        return { ok: false, error: { code: 'HTTP_' + res.status, retryable: res.status >= 500 } };
      });
    }, function () {
      return { ok: false, error: { code: 'NETWORK', retryable: true } };
    }).then(function (env) {
      if (env.ok || !env.error.retryable || n >= 3) return env;
      var ms = 400 * Math.pow(2, n - 1) * (1 + Math.random() / 2);
      return new Promise(function (r) { setTimeout(r, ms); }).then(function () { return call(c, op, data, n + 1); });
    });
  }

  function body(item, action) {
    var b = { context: item.context, entityType: item.entityType, entityGid: item.entityGid, source: item.source || 'theme' };
    if (action) b.action = action;
    if (item.snapshot) b.snapshot = item.snapshot;
    return b;
  }

  // Guest saves: what a logged-out shopper chose, kept in localStorage until merged after login.
  function guest() {
    try { return JSON.parse(localStorage.getItem(GUEST)) || []; } catch (e) { return []; }
  }
  function same(a, b) { return a.context === b.context && a.entityGid === b.entityGid; }
  function keepGuest(items) {
    try {
      if (items.length) localStorage.setItem(GUEST, JSON.stringify(items));
      else localStorage.removeItem(GUEST);
    } catch (e) { /* private mode: nothing to keep */ }
  }
  function setGuest(item, on) {
    var items = guest().filter(function (g) { return !same(g, item); });
    if (on) items.push({ context: item.context, entityType: item.entityType, entityGid: item.entityGid, source: item.source, snapshot: item.snapshot });
    keepGuest(items);
  }

  // After login: guest saves go to the list through /batch (10 per call, Starter's cap), one /save
  // at a time where the plan has no batch. DUPLICATE_SAVE counts as merged; failures stay guest saves.
  function merge(c) {
    if (merging) return merging;
    var todo = guest(), done = [], single = false, i = 0;
    function gone(r) { return r.ok || r.code === 'DUPLICATE_SAVE' || r.code === 'VALIDATION_ERROR'; }
    function step() {
      if (i >= todo.length) return;
      var n = single ? 1 : 10, chunk = todo.slice(i, i + n);
      var req = single
        ? call(c, 'save', body(chunk[0]))
        : call(c, 'batch', { operations: chunk.map(function (g) { return body(g, 'save'); }) });
      return req.then(function (env) {
        var e = env.error || {};
        if (!single && !env.ok && (e.code === 'PLAN_LIMIT_REACHED' || e.code === 'VALIDATION_ERROR')) {
          single = true;
          return step();
        }
        var results = env.ok ? (single ? [env] : env.data.results) : single && gone(e) ? [e] : null;
        if (!results) return; // stop: the rest stays for the next page load
        results.forEach(function (r, k) { if (gone(r)) done.push(chunk[k]); });
        i += n;
        return step();
      });
    }
    merging = Promise.resolve(todo.length && step()).then(function () {
      keepGuest(guest().filter(function (g) { return !done.some(function (m) { return same(m, g); }); }));
    });
    return merging;
  }

  function fromGuest(ctx) {
    guest().forEach(function (g) { if (g.context === ctx) list(ctx)[g.entityGid] = g; });
  }

  // The saved state of a context: ONE paged /list read (100 a page) shared by every button and heart.
  function load(c) {
    var ctx = c.ctx;
    function page(cursor, n) {
      var q = { context: ctx, limit: 100 };
      if (cursor) q.cursor = cursor;
      return call(c, 'list', q).then(function (env) {
        if (!env.ok) return env.error.code === 'AUTH_REQUIRED' && fromGuest(ctx);
        env.data.items.forEach(function (it) { it.context = ctx; list(ctx)[it.entityGid] = it; });
        var p = env.data.pageInfo;
        if (p.hasNextPage && n < 10) return page(p.endCursor, n + 1);
      });
    }
    if (!loads[ctx]) {
      loads[ctx] = (c.customer ? merge(c).then(function () { return page(null, 1); }) : Promise.resolve(fromGuest(ctx)))
        .then(notify);
    }
    return loads[ctx];
  }

  // Optimistic: the UI flips at once; /save or /remove (idempotent, so safe to retry) confirms it or
  // it rolls back. AUTH_REQUIRED keeps the choice as a guest save. Resolves 'ok' | 'guest' | 'error'.
  function change(c, item, on) {
    var key = item.context + ' ' + item.entityGid;
    if (busy[key]) return Promise.resolve('');
    busy[key] = 1;
    var before = list(item.context)[item.entityGid];
    item.source = c.source;
    put(item, on);
    return call(c, on ? 'save' : 'remove', body(item)).then(function (env) {
      var code = env.ok ? '' : env.error.code;
      delete busy[key];
      if (!code || code === (on ? 'DUPLICATE_SAVE' : 'ITEM_NOT_FOUND')) return 'ok';
      if (code === 'AUTH_REQUIRED') {
        setGuest(item, on);
        return 'guest';
      }
      put(before || item, !!before);
      return 'error';
    });
  }

  function say(c, out, res, on) {
    out.textContent = '';
    if (!res) return;
    out.textContent = c.t(res === 'error' ? 'error' : !on ? 'removed' : res === 'guest' ? 'guest' : 'added');
    if (res === 'guest' && on) {
      var a = el('a', 'si-login', c.t('login'));
      a.href = attr(c.el, 'login-url') + '?return_url=' + encodeURIComponent(location.pathname + location.search);
      out.appendChild(d.createTextNode(' '));
      out.appendChild(a);
    }
  }

  function snapshot(s) {
    Object.keys(s).forEach(function (k) { if (!s[k]) delete s[k]; });
    if (JSON.stringify(s).length > 3000) delete s.image;
    return s;
  }

  function safeUrl(u) { return typeof u === 'string' && /^(\/(?!\/)|https:\/\/)/.test(u); }

  function initButton(c) {
    var root = c.el, btn = root.querySelector('button'), label = root.querySelector('.si-label');
    var out = root.querySelector('[role=status]'), variants = {}, vid = attr(root, 'variant-id');
    try {
      JSON.parse(root.querySelector('[data-si-variants]').textContent).forEach(function (v) { variants[v.id] = v; });
    } catch (e) { /* no variant data: the product's own data is used */ }
    function item() {
      var isV = attr(root, 'entity') === 'variant', v = variants[vid] || {};
      var title = attr(root, 'title');
      return {
        context: c.ctx,
        entityType: isV ? 'variant' : 'product',
        entityGid: 'gid://shopify/' + (isV ? 'ProductVariant/' + vid : 'Product/' + attr(root, 'product-id')),
        snapshot: snapshot({
          title: isV && v.title && v.title !== 'Default Title' ? title + ' – ' + v.title : title,
          url: attr(root, 'url') + (isV ? '?variant=' + vid : ''),
          image: (isV && v.image) || attr(root, 'image'),
          price: (isV && v.price) || attr(root, 'price'),
          handle: attr(root, 'handle')
        })
      };
    }
    function render() {
      var on = saved(c.ctx, item().entityGid);
      btn.setAttribute('aria-pressed', on);
      label.textContent = c.t(on ? 'saved' : 'save');
    }
    // Follow the theme's variant: a variant:change event, the product form's id input, ?variant=.
    function sync(id) {
      var input = d.querySelector('form[action*="/cart/add"] [name=id]');
      id = String(id || (input && input.value) || new URLSearchParams(location.search).get('variant') || vid);
      if (id !== vid && variants[id]) {
        vid = id;
        out.textContent = '';
        render();
      }
    }
    d.addEventListener('variant:change', function (e) {
      var v = e.detail && (e.detail.variant || e.detail);
      sync(v && v.id);
    });
    d.addEventListener('change', function (e) {
      if (e.target.closest && e.target.closest('form[action*="/cart/add"]')) setTimeout(sync);
    }, true);
    w.addEventListener('popstate', function () { sync(); });
    btn.addEventListener('click', function () {
      var it = item(), on = !saved(c.ctx, it.entityGid);
      change(c, it, on).then(function (res) { say(c, out, res, on); });
    });
    subs.push(render);
    render();
    return load(c);
  }

  function initList(c) {
    var root = c.el, ul = root.querySelector('.si-items'), more = root.querySelector('.si-more');
    var out = root.querySelector('[role=status]'), size = +attr(root, 'page-size') || 12, cursor = null;
    function rows() { return $(ul, 'li:not([hidden])'); }
    function refresh() {
      root.setAttribute('data-state', rows().length ? 'ready' : 'empty');
      more.hidden = !cursor;
    }
    function row(it) {
      var s = it.snapshot || {}, title = s.title || c.t('untitled'), li = el('li', 'si-item');
      if (safeUrl(s.image) || /^data:image\//.test(s.image)) {
        var img = el('img');
        img.src = s.image;
        img.alt = '';
        img.width = img.height = 64;
        img.loading = 'lazy';
        li.appendChild(img);
      }
      var link = el(safeUrl(s.url) ? 'a' : 'span', 'si-title', title);
      if (safeUrl(s.url)) link.href = s.url;
      li.appendChild(link);
      if (s.price) li.appendChild(el('span', 'si-price', s.price));
      var rm = el('button', 'si-btn si-remove', c.t('remove'));
      rm.type = 'button';
      rm.setAttribute('aria-label', c.t('remove') + ': ' + title);
      rm.addEventListener('click', function () {
        var all = rows(), at = all.indexOf(li), next = all[at + 1] || all[at - 1];
        li.hidden = true;
        refresh();
        (next ? next.querySelector('.si-remove') : root).focus();
        change(c, it, false).then(function (res) {
          say(c, out, res, false);
          if (res === 'error') li.hidden = false;
          else if (res) li.remove();
          refresh();
        });
      });
      li.appendChild(rm);
      ul.appendChild(li);
    }
    function showGuest() {
      cursor = null;
      guest().forEach(function (g) { if (g.context === c.ctx) row(g); });
      refresh();
      if (rows().length) say(c, out, 'guest', true);
    }
    function fetchPage() {
      if (!c.customer) return showGuest();
      if (!rows().length) root.setAttribute('data-state', 'loading');
      more.disabled = true;
      var q = { context: c.ctx, limit: size };
      if (cursor) q.cursor = cursor;
      return merge(c).then(function () { return call(c, 'list', q); }).then(function (env) {
        more.disabled = false;
        if (!env.ok) {
          if (env.error.code === 'AUTH_REQUIRED') return showGuest();
          return root.setAttribute('data-state', 'error');
        }
        env.data.items.forEach(function (it) { it.context = c.ctx; row(it); });
        cursor = env.data.pageInfo.hasNextPage ? env.data.pageInfo.endCursor : null;
        refresh();
      });
    }
    more.addEventListener('click', fetchPage);
    root.querySelector('.si-retry').addEventListener('click', fetchPage);
    return fetchPage();
  }

  function initCards(c) {
    var root = c.el, tpl = root.querySelector('template'), out = root.querySelector('[role=status]');
    var selector = attr(root, 'selector') || '[data-saved-items-card]', timer;
    function byHandle(h) {
      var l = list(c.ctx);
      return Object.keys(l).some(function (k) { return (l[k].snapshot || {}).handle === h; });
    }
    function add(card) {
      if (card.closest('[data-si-card]') || card.querySelector('[data-si-card]')) return;
      var idEl = card.matches('[data-product-id]') ? card : card.querySelector('[data-product-id]');
      var link = card.querySelector('a[href*="/products/"]');
      var id = idEl && idEl.getAttribute('data-product-id');
      var handle = link && (link.pathname.match(/\/products\/([^/]+)/) || [])[1];
      if (!id && !handle) return;
      card.setAttribute('data-si-card', '');
      var name = (card.querySelector('h2, h3, h4') || link || card).textContent.trim();
      var img = card.querySelector('img');
      var btn = el('button', 'si si-heart si-' + (attr(root, 'position') || 'top-right'));
      btn.type = 'button';
      btn.setAttribute('style', root.getAttribute('style') || ''); // the embed's colour settings
      btn.setAttribute('aria-label', c.t('save') + ': ' + name);
      btn.appendChild(tpl.content.cloneNode(true));
      function gid() { return 'gid://shopify/Product/' + id; }
      function on() { return id ? saved(c.ctx, gid()) : byHandle(handle); }
      function render() { btn.setAttribute('aria-pressed', on()); }
      btn.addEventListener('click', function (e) {
        e.preventDefault();
        e.stopPropagation();
        var want = !on();
        (id ? Promise.resolve() : fetch(c.root + 'products/' + handle + '.js').then(function (r) { return r.json(); })
          .then(function (p) { id = String(p.id); })).then(function () {
          var price = card.querySelector('[data-price], .price');
          return change(c, {
            context: c.ctx,
            entityType: 'product',
            entityGid: gid(),
            snapshot: snapshot({
              title: name,
              url: link ? link.pathname : '',
              image: img && (img.currentSrc || img.src),
              price: price && price.textContent.trim(),
              handle: handle
            })
          }, want);
        }).catch(function () { return 'error'; }).then(function (res) {
          say(c, out, res, want);
          clearTimeout(timer);
          if (res !== 'guest') timer = setTimeout(function () { out.textContent = ''; }, 5000);
        });
      });
      subs.push(render);
      render();
      card.classList.add('si-card');
      card.appendChild(btn);
    }
    // The list is read only once a card shows up (pages without cards cost no request).
    function scan() {
      $(d, selector).forEach(add);
      return $(d, '[data-si-card]').length && load(c);
    }
    if (w.MutationObserver) {
      var pending;
      new MutationObserver(function () {
        clearTimeout(pending);
        pending = setTimeout(scan, 100);
      }).observe(d.body, { childList: true, subtree: true });
    }
    return scan();
  }

  function init(scope) {
    $(scope || d, '[data-si]').forEach(function (root) {
      if (root.hasAttribute('data-si-ready') || root.siInit) return;
      root.siInit = 1;
      var c = config(root), kind = attr(root, 'si');
      var run = kind === 'button' ? initButton : kind === 'list' ? initList : initCards;
      Promise.resolve(run(c)).then(function () { root.setAttribute('data-si-ready', ''); });
    });
  }

  w.SavedItems = { init: init };
  if (d.readyState === 'loading') d.addEventListener('DOMContentLoaded', function () { init(); });
  else init();
  d.addEventListener('shopify:section:load', function (e) { init(e.target); });
})(window, document);
