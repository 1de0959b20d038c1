import Mustache

/// Renders the templates of ``PageTemplates`` into HTML.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary

    /// Parses every template; a broken one is a programming error, found by the first test.
    init() throws {
        var library = MustacheLibrary()
        for (name, text) in PageTemplates.all { try library.register(text, named: name) }
        self.library = library
    }

    /// The page `template` with `values`; an unknown template renders nothing, so tests see it.
    func render(_ template: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: template) ?? ""
    }
}
