/// A text or password input as the form template shows it: its rules under it, and the rules
/// it broke in a list tied to it (`aria-describedby`), so a screen reader reads them with it.
struct FieldModel {
    let name: String
    let label: String
    var type = "text"
    var value = ""
    var autocomplete = "off"
    var rules: String? = nil
    var errors: [String] = []

    var values: [String: Any] {
        // A password is never written into a page, whatever the form kept: the HTML would hold
        // it in clear (in the browser's cache, a proxy's, a screenshot of the source).
        var values: [String: Any] = [
            "name": name, "label": label, "type": type, "value": type == "password" ? "" : value,
            "autocomplete": autocomplete,
            "errors": errors, "invalid": !errors.isEmpty,
            "describedBy": ((rules == nil ? [] : ["\(name)-rules"]) + ["\(name)-error"]).joined(separator: " "),
        ]
        if let rules { values["rules"] = rules }
        return values
    }
}

/// A checkbox, with an optional hint and its errors.
struct CheckboxModel {
    let name: String
    let label: String
    var hint: String? = nil
    var checked = false
    var required = false
    var errors: [String] = []

    var values: [String: Any] {
        var values: [String: Any] = [
            "name": name, "label": label, "checked": checked, "required": required, "errors": errors,
            "invalid": !errors.isEmpty,
            "describedBy": ((hint == nil ? [] : ["\(name)-rules"]) + ["\(name)-error"]).joined(separator: " "),
        ]
        if let hint { values["hint"] = hint }
        return values
    }
}

/// A form page: where it posts, where its live check goes, its fields and links.
struct FormModel {
    let action: String
    var check: String? = nil
    let submit: String
    var intro: String? = nil
    var fields: [FieldModel]
    var checkboxes: [CheckboxModel] = []
    var links: [(href: String, label: String)] = []
    /// "Sign in with …" buttons, one per configured provider.
    var providers: [(href: String, label: String)] = []

    func values(into page: [String: Any]) -> [String: Any] {
        var values = page
        values["action"] = action
        if let check { values["check"] = check }
        if let intro { values["intro"] = intro }
        values["submit"] = submit
        values["fields"] = fields.map(\.values)
        values["checkboxes"] = checkboxes.map(\.values)
        values["links"] = links.map { ["href": $0.href, "label": $0.label] }
        values["providers"] = providers.map { ["href": $0.href, "label": $0.label] }
        return values
    }

}
