/// The pages' one style sheet and one script, served from `/assets/` (no inline code, so the
/// Content-Security-Policy allows only the site's own files). The pages work without the
/// script; it only checks fields as they are typed and keeps the submit button disabled until
/// the form is complete and valid.
enum WebAssets {
    static let styleSheet = """
        :root { --ink: #1b1f24; --muted: #4a5461; --accent: #0b57d0; --error: #b3261e; --paper: #ffffff; --line: #6b7785; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans KR", sans-serif; color: var(--ink); background: #f4f6f8; }
        :lang(ko) { word-break: keep-all; overflow-wrap: anywhere; }
        .bar { display: flex; justify-content: space-between; align-items: center; padding: 0.75rem 1rem; background: var(--paper); border-bottom: 1px solid #d5dbe1; }
        .brand { font-weight: 700; color: var(--ink); text-decoration: none; }
        main { max-width: 30rem; margin: 1.5rem auto; padding: 1.25rem; background: var(--paper); border-radius: 0.5rem; }
        h1 { font-size: 1.5rem; margin: 0 0 1rem; }
        a { color: var(--accent); }
        .field, .check { margin: 0 0 1rem; }
        label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
        .check label { display: inline; font-weight: 400; margin-left: 0.4rem; }
        input[type=text], input[type=email], input[type=password] { width: 100%; padding: 0.6rem; font: inherit; border: 1px solid var(--line); border-radius: 0.35rem; }
        input[aria-invalid=true] { border-color: var(--error); border-width: 2px; }
        input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .rules { margin: 0.25rem 0 0; font-size: 0.875rem; color: var(--muted); }
        .errors { margin: 0.25rem 0 0; padding-left: 1.2rem; color: var(--error); font-size: 0.9rem; }
        .errors:empty { display: none; }
        .form-error { padding: 0.6rem 0.8rem; border-left: 4px solid var(--error); background: #fdecea; color: var(--error); }
        .notice { padding: 0.6rem 0.8rem; border-left: 4px solid var(--accent); background: #e8f0fe; }
        button, .button { display: inline-block; padding: 0.65rem 1.2rem; font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 0; border-radius: 0.35rem; text-decoration: none; cursor: pointer; }
        .button.secondary, button.secondary { color: var(--accent); background: var(--paper); border: 2px solid var(--accent); }
        .sessions { list-style: none; padding: 0; }
        .sessions li { margin: 0 0 1.2rem; }
        button:disabled { background: #8a94a0; cursor: not-allowed; }
        .actions .button { margin: 0 0.5rem 0.5rem 0; }
        .menu { padding-left: 1.2rem; }
        @media (max-width: 30rem) { main { margin: 0; border-radius: 0; } }

        """

    static let script = """
        "use strict";
        // Live checks: the server's own rules (POST to the form's data-check address), shown under
        // each field once it has been typed in; the submit button is enabled only when every
        // required field is filled and nothing breaks a rule.
        (function () {
          function showErrors(form, name, messages) {
            var list = document.getElementById(name + "-error");
            var input = form.elements[name];
            if (!list || !input) { return; }
            list.textContent = "";
            messages.forEach(function (message) {
              var item = document.createElement("li");
              item.textContent = message;
              list.appendChild(item);
            });
            if (messages.length) { input.setAttribute("aria-invalid", "true"); } else { input.removeAttribute("aria-invalid"); }
          }
          function filled(form) {
            return Array.prototype.every.call(form.querySelectorAll("[required]"), function (input) {
              return input.type === "checkbox" ? input.checked : input.value.trim() !== "";
            });
          }
          function live(form) {
            var button = form.querySelector("button[type=submit]");
            var touched = {};
            var valid = !form.dataset.check;
            var asked = 0;
            var timer = null;
            function settle() {
              button.disabled = !(valid && filled(form));
              form.setAttribute("aria-busy", "false");
            }
            function check() {
              if (!form.dataset.check) { settle(); return; }
              var mine = ++asked;
              var body = new URLSearchParams(new FormData(form));
              fetch(form.dataset.check, { method: "POST", body: body, credentials: "same-origin" })
                .then(function (response) { return response.json(); })
                .then(function (answer) {
                  if (mine !== asked) { return; }
                  valid = answer.valid;
                  Object.keys(answer.fields).forEach(function (name) {
                    if (touched[name]) { showErrors(form, name, answer.fields[name]); }
                  });
                  settle();
                })
                .catch(function () {
                  // The server checks again on submit; a failed check must not lock the form.
                  if (mine === asked) { valid = true; settle(); }
                });
            }
            // Only "input" (checkboxes fire it too): "change" also fires when a field loses
            // focus to the submit button, and must not disable the button under the pointer.
            // Until the check answers, the button keeps its state unless a field was emptied;
            // the server checks every submit anyway. A check already asked answers for the form
            // as it was: counting this change makes that answer stale, so it neither settles the
            // form nor shows its errors while the newer check is still to come.
            function changed(event) {
              if (event.target.name) { touched[event.target.name] = true; }
              asked += 1;
              form.setAttribute("aria-busy", "true");
              if (!filled(form)) { button.disabled = true; }
              clearTimeout(timer);
              timer = setTimeout(check, 150);
            }
            form.addEventListener("input", changed);
            form.setAttribute("aria-busy", "true");
            check();
          }
          Array.prototype.forEach.call(document.querySelectorAll("form[data-live]"), live);
        })();

        """
}
