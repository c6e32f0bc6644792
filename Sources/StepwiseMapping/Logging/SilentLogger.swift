import Logging

/// The logger Stepwise's APIs default to: it discards everything, so the library never writes
/// to the terminal unless the app hands it a logger. (Not an extension of swift-log's
/// `Logger`: a library adds no public API to another package's types.)
@usableFromInline
package enum SilentLogger {
    @usableFromInline
    package static var logger: Logger {
        Logger(label: "stepwise", factory: { _ in SwiftLogNoOpLogHandler() })
    }
}
