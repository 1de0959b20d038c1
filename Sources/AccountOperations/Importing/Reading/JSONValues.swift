import AccountCore

/// The JSON records of a source file, one at a time, in the memory of one record: the
/// elements of its top-level array, or its top-level values one after another (JSON Lines, as
/// `manage.py dumpdata --format jsonl` and PostgreSQL's `row_to_json` write them, or a single
/// object), or the elements of the array under one member of its top-level object (Firebase's
/// and Keycloak's `users`). Each record is decoded on its own (``SourceJSON``); the bytes
/// between records must be JSON's, and anything after the last one must be white space.
final class JSONValues {
    /// Where the records are.
    enum Layout: Sendable {
        /// The top-level array's elements, or the top-level values.
        case records
        /// The elements of the array under this member of the top-level object.
        case member(String)
    }

    private enum State {
        case start
        /// Inside an array: before its first element, or after one.
        case array(first: Bool, closesFile: Bool)
        /// Top-level values one after another.
        case sequence
        /// The member's array ended: the rest of the top-level object is read, then the end.
        case afterMember
        case done
    }

    private let bytes: SourceBytes
    private let layout: Layout
    private var state = State.start
    private let problem: (_ english: String, _ korean: String) -> AccountError
    /// Records read so far.
    private(set) var count = 0

    init(
        _ bytes: SourceBytes, layout: Layout, problem: @escaping (_ english: String, _ korean: String) -> AccountError
    ) {
        self.bytes = bytes
        self.layout = layout
        self.problem = problem
    }

    /// The next record, or nil after the last.
    func next() throws(AccountError) -> SourceJSON? {
        while true {
            switch state {
            case .start:
                try bytes.skipWhiteSpace()
                switch (layout, try bytes.peek()) {
                case (_, nil):
                    state = .done
                case (.records, UInt8(ascii: "[")):
                    bytes.index += 1
                    state = .array(first: true, closesFile: true)
                case (.records, _):
                    state = .sequence
                case (.member(let name), UInt8(ascii: "{")):
                    bytes.index += 1
                    try openMember(name)
                case (.member(let name), _):
                    throw problem(
                        "it is not a JSON object with a \"\(name)\" array", "\"\(name)\" 배열이 있는 JSON 객체가 아닙니다")
                }
            case .array(let first, let closesFile):
                try bytes.skipWhiteSpace()
                guard let byte = try bytes.peek() else { throw truncated() }
                if byte == UInt8(ascii: "]") {
                    bytes.index += 1
                    state = closesFile ? .done : .afterMember
                    if closesFile { try expectEnd() }
                    continue
                }
                if !first {
                    guard byte == UInt8(ascii: ",") else { throw grammar("a ',' or ']' between records") }
                    bytes.index += 1
                    try bytes.skipWhiteSpace()
                }
                state = .array(first: false, closesFile: closesFile)
                return try record()
            case .sequence:
                try bytes.skipWhiteSpace()
                guard try bytes.peek() != nil else {
                    state = .done
                    continue
                }
                return try record()
            case .afterMember:
                try closeObject()
                try expectEnd()
                state = .done
            case .done:
                return nil
            }
        }
    }

    /// Reads the top-level object's members up to the one named `name`, whose array it enters;
    /// `invalidExport` when the object ends without it.
    private func openMember(_ name: String) throws(AccountError) {
        var first = true
        while true {
            try bytes.skipWhiteSpace()
            guard let byte = try bytes.peek() else { throw truncated() }
            if byte == UInt8(ascii: "}") {
                throw problem("it has no \"\(name)\" array", "\"\(name)\" 배열이 없습니다")
            }
            if !first {
                guard byte == UInt8(ascii: ",") else { throw grammar("a ',' or '}' between members") }
                bytes.index += 1
                try bytes.skipWhiteSpace()
            }
            first = false
            let key = try memberName()
            if key == name {
                try bytes.skipWhiteSpace()
                guard try bytes.peek() == UInt8(ascii: "[") else {
                    throw problem("its \"\(name)\" is not an array", "\"\(name)\"이(가) 배열이 아닙니다")
                }
                bytes.index += 1
                state = .array(first: true, closesFile: false)
                return
            }
            try bytes.skipWhiteSpace()
            _ = try value(keeping: false)
        }
    }

    /// Reads the members after the records' array, up to the object's `}`.
    private func closeObject() throws(AccountError) {
        while true {
            try bytes.skipWhiteSpace()
            guard let byte = try bytes.peek() else { throw truncated() }
            bytes.index += 1
            if byte == UInt8(ascii: "}") { return }
            guard byte == UInt8(ascii: ",") else { throw grammar("a ',' or '}' between members") }
            try bytes.skipWhiteSpace()
            _ = try memberName()
            try bytes.skipWhiteSpace()
            _ = try value(keeping: false)
        }
    }

    /// A member's name and its `:`.
    private func memberName() throws(AccountError) -> String {
        guard try bytes.peek() == UInt8(ascii: "\"") else { throw grammar("a member name in quotes") }
        guard case .text(let name)? = SourceJSON.decode(try value(keeping: true)) else {
            throw grammar("a member name in quotes")
        }
        try bytes.skipWhiteSpace()
        guard try bytes.peek() == UInt8(ascii: ":") else { throw grammar("a ':' after a member name") }
        bytes.index += 1
        return name
    }

    /// The next record, decoded.
    private func record() throws(AccountError) -> SourceJSON {
        count += 1
        let start = bytes.position
        guard let decoded = SourceJSON.decode(try value(keeping: true)) else {
            throw problem(
                "record \(count), at byte \(start), is not valid JSON", "\(count)번째 기록(\(start)바이트)이 올바른 JSON이 아닙니다")
        }
        return decoded
    }

    /// The bytes of the value that starts here (kept only when `keeping`): an object or array
    /// to its closing bracket, a string to its closing quote, any other value to the next
    /// delimiter. The value's own grammar is checked when it is decoded.
    private func value(keeping: Bool) throws(AccountError) -> [UInt8] {
        var kept: [UInt8] = []
        guard let first = try bytes.peek() else { throw truncated() }
        let nested = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
        var depth = 0
        var inString = false
        var escaped = false
        var done = false
        while !done {
            guard try bytes.peek() != nil else {
                guard nested else { break }
                throw truncated()
            }
            let chunk = bytes.chunk
            var index = bytes.index
            let start = index
            while index < chunk.count {
                let byte = chunk[index]
                if !nested {
                    if byte == 0x2C || byte == 0x5D || byte == 0x7D || byte == 0x20 || byte == 0x0A || byte == 0x0D
                        || byte == 0x09
                    {
                        done = true
                        break
                    }
                    index += 1
                    continue
                }
                index += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == 0x5C {
                        escaped = true
                    } else if byte == 0x22 {
                        inString = false
                        if depth == 0 {
                            done = true
                            break
                        }
                    }
                } else if byte == 0x22 {
                    inString = true
                } else if byte == 0x7B || byte == 0x5B {
                    depth += 1
                } else if byte == 0x7D || byte == 0x5D {
                    depth -= 1
                    if depth == 0 {
                        done = true
                        break
                    }
                }
            }
            if keeping { kept.append(contentsOf: chunk[start..<index]) }
            bytes.index = index
        }
        return kept
    }

    /// Only white space may follow the records.
    private func expectEnd() throws(AccountError) {
        try bytes.skipWhiteSpace()
        guard try bytes.peek() == nil else { throw grammar("the end of the file after the records") }
    }

    private func grammar(_ expected: String) -> AccountError {
        problem(
            "it is not valid JSON: \(expected) was expected at byte \(bytes.position)",
            "올바른 JSON이 아닙니다: \(bytes.position)바이트에 \(expected)이(가) 와야 합니다")
    }

    private func truncated() -> AccountError {
        problem("its JSON ends early, at byte \(bytes.position)", "JSON이 \(bytes.position)바이트에서 일찍 끝납니다")
    }
}
