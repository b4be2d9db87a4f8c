/*
 * The calendar page's view manager: previous/next, today and the view selector load the next view
 * from vendor/views/v2/html (GET, with the view's URL as `u` and the view nonces as tvn1/tvn2) and
 * swap it in place, keeping the address bar and history in step. The events bar's form (keyword, date)
 * is sent the same way. Every link is a plain page link and the form a plain GET form, so without this
 * script (or when a request fails) the browser simply navigates. The region keeps its height while a
 * view loads, so nothing below it jumps.
 */
(function () {
  'use strict';

  var region = document.querySelector('[data-calendar-view]');
  if (!region || !window.fetch || !window.history || !history.pushState) return;
  var status = document.querySelector('[data-calendar-status]');
  var controller = null;

  function view() {
    return region.querySelector('[data-js="tribe-events-view"]');
  }

  function readJson(selector) {
    var el = region.querySelector(selector);
    if (!el) return {};
    try {
      return JSON.parse(el.textContent) || {};
    } catch (e) {
      return {};
    }
  }

  /** The REST address on this page's own origin (the site may be reached under another host name). */
  function restUrl() {
    var base = new URL(region.getAttribute('data-rest-url') || '/index.php/cms-json/vendor/views/v2/html', location.href);
    return new URL(base.pathname, location.href);
  }

  /** The address to show for a view URL: same origin as the page, so history accepts it. */
  function pageUrl(url) {
    var target = new URL(url, location.href);
    return target.origin === location.origin ? target.href : target.pathname + target.search + target.hash;
  }

  /** A key that finds the same control in the next view (the link's class list). */
  function controlKey(el) {
    return el && el.classList ? el.className : '';
  }

  function announce(text) {
    if (!status) return;
    status.textContent = '';
    // A change the next frame is read by screen readers even when the text repeats.
    window.setTimeout(function () {
      status.textContent = text;
    }, 50);
  }

  function load(url, push, focusKey) {
    var nonces = readJson('[data-js="tribe-events-view-nonce-data"]');
    var endpoint = restUrl();
    endpoint.searchParams.set('u', new URL(url, location.href).href);
    if (nonces.tvn1) endpoint.searchParams.set('tvn1', nonces.tvn1);
    if (nonces.tvn2) endpoint.searchParams.set('tvn2', nonces.tvn2);
    if (controller) controller.abort();
    controller = window.AbortController ? new AbortController() : null;
    region.setAttribute('aria-busy', 'true');
    return fetch(endpoint.href, { headers: { Accept: 'text/html' }, credentials: 'same-origin', signal: controller ? controller.signal : undefined })
      .then(function (res) {
        if (!res.ok) throw new Error('view request failed: ' + res.status);
        return res.text();
      })
      .then(function (html) {
        region.style.minHeight = region.offsetHeight + 'px';
        region.innerHTML = html;
        region.removeAttribute('aria-busy');
        window.requestAnimationFrame(function () {
          region.style.minHeight = '';
        });
        var data = readJson('[data-js="tribe-events-view-data"]');
        var feed = document.querySelector('link[rel="alternate"][type="text/calendar"]');
        if (feed && data.ical_url) feed.setAttribute('href', data.ical_url);
        var title = data.title || '';
        if (title) document.title = title + (region.getAttribute('data-title-suffix') || '');
        if (push) history.pushState({ calendarUrl: data.url || url }, '', pageUrl(data.url || url));
        var target = null;
        if (focusKey) {
          var candidates = region.querySelectorAll('a[data-js="tribe-events-view-link"]');
          for (var i = 0; i < candidates.length; i++) {
            if (controlKey(candidates[i]) === focusKey) {
              target = candidates[i];
              break;
            }
          }
        }
        if (!target) {
          target = region.querySelector('.tribe-events-header__title');
          if (target) target.setAttribute('tabindex', '-1');
        }
        if (target && focusKey !== null) target.focus({ preventScroll: true });
        if (title) announce(title);
      })
      .catch(function (err) {
        if (err && err.name === 'AbortError') return;
        region.removeAttribute('aria-busy');
        // The page itself always works: go there.
        window.location.assign(pageUrl(url));
      });
  }

  region.addEventListener('click', function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest ? event.target.closest('a[data-js="tribe-events-view-link"]') : null;
    if (!link || !region.contains(link) || (link.target && link.target !== '_self')) return;
    event.preventDefault();
    var key = controlKey(link);
    var top = region.getBoundingClientRect().top;
    if (top < 0) region.scrollIntoView({ block: 'start' });
    load(link.href, true, key);
  });

  region.addEventListener('submit', function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.matches || !form.matches('form[data-js="tribe-events-view-form"]')) return;
    event.preventDefault();
    var url = new URL(form.getAttribute('action') || location.href, location.href);
    var fields = new FormData(form);
    fields.forEach(function (value, name) {
      if (typeof value === 'string' && value !== '') url.searchParams.append(name, value);
    });
    load(url.href, true, '');
  });

  window.addEventListener('popstate', function (event) {
    var url = event.state && event.state.calendarUrl ? event.state.calendarUrl : location.href;
    load(url, false, null);
  });

  // The first view's entry, so going back to it reloads it in place.
  var first = view();
  if (first) history.replaceState({ calendarUrl: readJson('[data-js="tribe-events-view-data"]').url || location.href }, '', location.href);
})();

/*
 * The events bar's "Near" field (extended edition): "Use my location" asks the browser for its position
 * and sends the form with that point; typing a place clears a point given before, so the place is
 * searched instead. The button shows only where the browser can tell its position.
 */
(function () {
  'use strict';

  if (!navigator.geolocation) return;
  document.documentElement.classList.add('tribe-events-has-geolocation');

  function field(form, name) {
    return form.querySelector('[data-js="tribe-events-geoloc' + name + '"]');
  }

  document.addEventListener('input', function (event) {
    var input = event.target;
    if (!input.matches || !input.matches('[data-js="tribe-events-geoloc"]') || !input.form) return;
    field(input.form, '-lat').value = '';
    field(input.form, '-lng').value = '';
  });

  document.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('[data-js="tribe-events-geoloc-here"]') : null;
    if (!button || !button.form) return;
    var form = button.form;
    button.disabled = true;
    navigator.geolocation.getCurrentPosition(
      function (position) {
        button.disabled = false;
        field(form, '').value = '';
        field(form, '-lat').value = position.coords.latitude.toFixed(6);
        field(form, '-lng').value = position.coords.longitude.toFixed(6);
        if (form.requestSubmit) form.requestSubmit();
        else form.submit();
      },
      function () {
        button.disabled = false;
        button.textContent = 'Location not available';
      },
      { timeout: 10000, maximumAge: 600000 },
    );
  });
})();
