package import AccountCore
import Foundation

/// The reply language from an `Accept-Language` header: Korean when it prefers `ko` over
/// English, English otherwise (and when there is no header).
package enum AcceptLanguage {
    package static func language(from header: String?) -> Language {
        guard let header else { return .english }
        var best: (language: Language, quality: Double)?
        for part in header.split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let tag = fields.first else { continue }
            let quality =
                fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            let language: Language
            if tag == "ko" || tag.hasPrefix("ko-") {
                language = .korean
            } else if tag == "en" || tag.hasPrefix("en-") || tag == "*" {
                language = .english
            } else {
                continue
            }
            if quality > (best?.quality ?? 0) { best = (language, quality) }
        }
        return best?.language ?? .english
    }
}
