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

    /// The first description any backend gives of a file starting with `fileHeader`.
    public func describe(fileHeader: [UInt8]) -> String? {
        for recognize in recognizers {
            if let found = recognize(fileHeader) { return found }
        }
        return nil
    }
}
