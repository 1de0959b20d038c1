import Foundation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// The working directory, for resolving relative paths given on the command line.
enum FileManagerPath {
    static var current: String { FileManager.default.currentDirectoryPath }
}
