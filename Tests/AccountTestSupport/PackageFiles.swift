public import Foundation

/// Files of this package's own tree (documents, configs, scripts) that tests read, so that a
/// document and the code it describes cannot drift apart.
public enum PackageFiles {
    /// The package's root folder: this file is at `Tests/AccountTestSupport/`.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of `relativePath` under the package's root.
    public static func path(_ relativePath: String) -> String {
        root.appendingPathComponent(relativePath).path
    }

    /// The error codes article, which scripts and clients rely on.
    public static let errorCodesArticle = path("Sources/AccountCore/AccountCore.docc/ErrorCodes.md")
}
