import Foundation

/// An error whose `description` is a complete sentence for people: what went wrong, naming
/// the file, version, entity, property or row, and what to do next.
///
/// Every public Stepwise error (``ModelError``, `StoreError`, `MappingError`, `UpgradeError`,
/// `UpgradeMatrixFailure`) conforms, and also conforms to `LocalizedError` itself, so what an
/// app shows (`error.localizedDescription`) is that sentence, not "The operation could not be
/// completed. (Stepwise.UpgradeError error 1.)". Apps switch on each error's `kind`; the two
/// requirements here are for this package's own tools and tests.
///
/// The sentence speaks the library's words (`UpgradeOptions.lockTimeout`), never a command
/// line's: the `stepwise` tool adds its own hints (`--lock-timeout`) where it prints them.
package protocol ReportableError: LocalizedError, CustomStringConvertible, Sendable {
    /// The error's case, such as `stepFailed` or `unknownVersion`: what a tool matches on
    /// (the `kind` of the CLI's `{"error": …}` JSON). Written out per case, so it never
    /// depends on how Swift prints a value.
    var caseName: String { get }
    /// The file the error is about (a store, a model, a mapping file), when it names one.
    var subjectPath: String? { get }
}

extension ReportableError {
    /// The `description`, for the package's own errors; each public error declares its own.
    package var errorDescription: String? { description }
}

/// The text of any error for a message.
public enum ErrorText {
    /// A `LocalizedError`'s own `errorDescription` (a policy's `TitleError` says "Title is
    /// empty", not `TitleError()`), an `NSError`'s `localizedDescription` rather than its
    /// whole dump, else the error's description.
    public static func describe(_ error: any Error) -> String {
        if let localized = error as? any LocalizedError, let text = localized.errorDescription {
            return text
        }
        if type(of: error) is NSError.Type {
            return (error as NSError).localizedDescription
        }
        return String(describing: error)
    }
}
