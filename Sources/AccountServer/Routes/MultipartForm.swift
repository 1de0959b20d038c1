/// The parts of a `multipart/form-data` body (RFC 7578), as Strapi's body parser takes them and
/// as a `FormData` in a browser or an SDK's upload helper sends them.
enum MultipartForm {
    /// One part: its field name, whether it is a file (a `filename` parameter), and its bytes.
    struct Part: Equatable {
        let name: String
        let isFile: Bool
        let value: [UInt8]
    }

    /// The `boundary` parameter of a `Content-Type` value (quoted or not), if it has one that
    /// RFC 2046 allows (1–70 characters).
    static func boundary(inContentType value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingASCIISpaces().lowercased() == "boundary" else { continue }
            var boundary = pair[1].trimmingASCIISpaces()
            if boundary.count >= 2, boundary.hasPrefix("\""), boundary.hasSuffix("\"") {
                boundary = boundary.dropFirst().dropLast()
            }
            return (1...70).contains(boundary.utf8.count) ? String(boundary) : nil
        }
        return nil
    }

    /// The parts of `body`, in order; `nil` when it is not a well-formed multipart body with
    /// that boundary (no closing delimiter, a part without a `form-data` name, headers that do
    /// not end).
    static func parts(_ body: [UInt8], boundary: String) -> [Part]? {
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        // The first delimiter opens the body or follows a preamble's CRLF.
        guard var cursor = body.starts(with: delimiter) ? 0 : find(crlf + delimiter, in: body, from: 0).map({ $0 + 2 })
        else { return nil }
        var parts: [Part] = []
        while true {
            cursor += delimiter.count
            if body[cursor...].starts(with: [45, 45]) { return parts }  // "--": the closing delimiter
            // Transport padding, then the CRLF that ends the delimiter line.
            while cursor < body.count, body[cursor] == 32 || body[cursor] == 9 { cursor += 1 }
            guard body[cursor...].starts(with: crlf) else { return nil }
            cursor += 2
            guard let headersEnd = find(crlf + crlf, in: body, from: cursor - 2) else { return nil }
            let headers = headersEnd > cursor ? Array(body[cursor..<headersEnd]) : []
            let contentStart = headersEnd + 4
            guard let next = find(crlf + delimiter, in: body, from: contentStart - 2) else { return nil }
            guard let disposition = formData(headers) else { return nil }
            let content = next >= contentStart ? Array(body[contentStart..<next]) : []
            parts.append(Part(name: disposition.name, isFile: disposition.isFile, value: content))
            cursor = next + 2
        }
    }

    /// The `name` and whether there is a `filename` in a part's `Content-Disposition: form-data`.
    private static func formData(_ headers: [UInt8]) -> (name: String, isFile: Bool)? {
        guard let text = String(validating: headers, as: UTF8.self) else { return nil }
        for line in text.split(separator: "\r\n") {
            let header = line.split(separator: ":", maxSplits: 1)
            guard header.count == 2, header[0].trimmingASCIISpaces().lowercased() == "content-disposition" else {
                continue
            }
            let fields = header[1].split(separator: ";").map { $0.trimmingASCIISpaces() }
            guard fields.first?.lowercased() == "form-data" else { return nil }
            var name: String?
            var isFile = false
            for field in fields.dropFirst() {
                let pair = field.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                var value = pair[1].trimmingASCIISpaces()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                switch pair[0].trimmingASCIISpaces().lowercased() {
                case "name": name = String(value)
                case "filename", "filename*": isFile = true
                default: break
                }
            }
            return name.map { ($0, isFile) }
        }
        return nil
    }

    /// Where `needle` first starts in `haystack` at or after `start`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = max(start, 0)
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    /// Without the spaces and tabs at either end.
    fileprivate func trimmingASCIISpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
