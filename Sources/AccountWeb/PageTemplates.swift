/// The pages' Mustache templates. `{{…}}` escapes HTML, so every value (a nickname, a typed
/// ID) is shown as text; nothing here is an inline script or style, so the Content-Security-
/// Policy can forbid both.
enum PageTemplates {
    static let all: [String: String] = [
        "head": head, "foot": foot, "field": field, "checkbox": checkbox, "start": start, "form": form,
        "welcome": welcome, "message": message, "sessions": sessions,
    ]

    static let head = """
        <!DOCTYPE html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · AccountStore</title>
        <link rel="stylesheet" href="/assets/app.css">
        <script src="/assets/app.js" defer></script>
        </head>
        <body>
        <header class="bar">
        <a class="brand" href="/">AccountStore</a>
        <nav aria-label="{{languageNavigation}}"><a href="/language?to={{otherLanguage}}&amp;back={{path}}" lang="{{otherLanguage}}" hreflang="{{otherLanguage}}">{{otherLanguageName}}</a></nav>
        </header>
        <main>
        <h1>{{title}}</h1>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#formError}}<p class="form-error" role="alert" id="form-error">{{formError}}</p>{{/formError}}

        """

    static let foot = """
        </main>
        </body>
        </html>

        """

    static let field = """
        <div class="field">
        <label for="{{name}}">{{label}}</label>
        <input id="{{name}}" name="{{name}}" type="{{type}}" value="{{value}}" autocomplete="{{autocomplete}}" required aria-describedby="{{describedBy}}"{{#invalid}} aria-invalid="true"{{/invalid}}>
        {{#rules}}<p class="rules" id="{{name}}-rules">{{rules}}</p>{{/rules}}
        <ul class="errors" id="{{name}}-error">{{#errors}}<li>{{.}}</li>{{/errors}}</ul>
        </div>

        """

    static let checkbox = """
        <div class="check">
        <input type="checkbox" id="{{name}}" name="{{name}}" value="on"{{#required}} required{{/required}}{{#checked}} checked{{/checked}} aria-describedby="{{describedBy}}"{{#invalid}} aria-invalid="true"{{/invalid}}>
        <label for="{{name}}">{{label}}</label>
        {{#hint}}<p class="rules" id="{{name}}-rules">{{hint}}</p>{{/hint}}
        <ul class="errors" id="{{name}}-error">{{#errors}}<li>{{.}}</li>{{/errors}}</ul>
        </div>

        """

    static let start = """
        {{> head}}
        <p>{{lead}}</p>
        <p class="actions"><a class="button" href="/signup">{{signUp}}</a> <a class="button secondary" href="/login">{{logIn}}</a></p>
        {{> foot}}
        """

    static let form = """
        {{> head}}
        {{#intro}}<p class="intro">{{intro}}</p>{{/intro}}
        <form method="post" action="{{action}}" novalidate data-live{{#check}} data-check="{{check}}"{{/check}}{{#formError}} aria-describedby="form-error"{{/formError}}>
        <input type="hidden" name="csrf" value="{{csrf}}">
        {{#fields}}{{> field}}{{/fields}}
        {{#checkboxes}}{{> checkbox}}{{/checkboxes}}
        <button type="submit">{{submit}}</button>
        </form>
        {{#providers}}<p class="provider"><a class="button secondary" href="{{href}}">{{label}}</a></p>{{/providers}}
        {{#links}}<p class="link"><a href="{{href}}">{{label}}</a></p>{{/links}}
        {{> foot}}
        """

    static let welcome = """
        {{> head}}
        <p>{{signedInAs}}</p>
        <form method="post" action="/logout">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">{{logOut}}</button>
        </form>
        <ul class="menu">
        <li><a href="/sessions">{{sessions}}</a></li>
        <li><a href="/password">{{changePassword}}</a></li>
        <li><a href="/withdraw">{{withdraw}}</a></li>
        </ul>
        {{> foot}}
        """

    /// Each session's own form signs it out; the current one is marked, not offered (the
    /// welcome screen's logout signs it out).
    static let sessions = """
        {{> head}}
        <ul class="sessions">
        {{#sessions}}<li>
        <strong class="device">{{device}}</strong>{{#current}} <span class="current">{{currentLabel}}</span>{{/current}}
        <p><time datetime="{{createdISO}}">{{created}}</time> · <time datetime="{{lastUsedISO}}">{{lastUsed}}</time></p>
        {{^current}}<form method="post" action="/sessions/revoke">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <button type="submit" class="secondary">{{revoke}}</button>
        </form>{{/current}}
        </li>
        {{/sessions}}</ul>
        {{#revokeOthers}}<form method="post" action="/sessions/revoke-others">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">{{revokeOthers}}</button>
        </form>{{/revokeOthers}}
        <p class="link"><a href="/welcome">{{backToWelcome}}</a></p>
        {{> foot}}
        """

    static let message = """
        {{> head}}
        <p><a href="/">{{startLink}}</a></p>
        {{> foot}}
        """
}
