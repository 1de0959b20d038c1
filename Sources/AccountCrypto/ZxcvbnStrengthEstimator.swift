public import AccountCore
import CZxcvbn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Password strength through zxcvbn-c (`ZxcvbnMatch`), which returns log₂ of the guesses.
public struct ZxcvbnStrengthEstimator: PasswordStrengthEstimator {
    /// Creates the estimator.
    public init() {}

    public func guessesLog2(_ password: String, userWords: [String]) -> Double {
        // zxcvbn-c wants a NULL-terminated array of C strings that outlive the call.
        let cWords = userWords.map { strdup($0) }
        defer { for word in cWords { free(word) } }
        var array: [UnsafePointer<CChar>?] = cWords.map { UnsafePointer($0) }
        array.append(nil)
        return array.withUnsafeMutableBufferPointer { words in
            ZxcvbnMatch(password, words.baseAddress, nil)
        }
    }
}
