/// Tells what a file is from its first bytes, by asking every backend a program offers
/// (``BackendDescriptor/recognize(fileHeader:)``). A backend that finds a file that is not its
/// own asks it, so that another backend's store is refused as `storeKindMismatch`, naming what
/// it is, while unknown bytes are `storeCorrupted`, and no backend names another.
public struct StoreRecognizer: Sendable {
    private let recognizers: [@Sendable ([UInt8]) -> String?]

    /// A recognizer asking each of `recognizers` in turn.
    public init(_ recognizers: [@Sendable ([UInt8]) -> String?]) {
        self.recognizers = recognizers
    }

    /// Recognizes nothing (a backend opened on its own, outside any registry).
    public static let none = StoreRecognizer([])

    /// The first description any backend gives of a file starting with `fileHeader`; for a
    /// JSON document no backend claims, "a JSON document of another format" (JSON is a common
    /// format for other programs' files, so such a file is foreign rather than damaged).
    public func describe(fileHeader: [UInt8]) -> String? {
        for recognize in recognizers {
            if let found = recognize(fileHeader) { return found }
        }
        let first = fileHeader.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") ? Self.otherJSON : nil
    }

    /// How an unclaimed JSON document is described.
    public static let otherJSON = "a JSON document of another format"
}
