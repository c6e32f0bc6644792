import Logging

extension Logger {
    /// A logger that discards everything: the default for Stepwise's APIs, so the library
    /// never writes to the terminal unless the app hands it a logger.
    public static var silent: Logger {
        Logger(label: "stepwise", factory: { _ in SwiftLogNoOpLogHandler() })
    }
}
