import Foundation
import StepwiseModel

/// Decodes the user info Xcode archives into a mapping model (`userinfodata`): an archived
/// `NSDictionary` whose keys and values are strings, as the mapping editor writes them.
package enum ArchivedDictionary {
    package static func strings(_ data: Data) throws(MappingError) -> [String: String] {
        do {
            let archive = try KeyedArchive(data)
            guard let root = archive.top["root"], let object = try archive.object(root) else { return [:] }
            guard object.className == "NSDictionary" || object.className == "NSMutableDictionary" else {
                throw MappingError(
                    .unsupportedExpression(className: object.className, reason: "user info that is not a dictionary"))
            }
            var result: [String: String] = [:]
            for (key, value) in try archive.entries(of: object) {
                guard case .string(let keyText)? = try archive.value(key) else {
                    throw MappingError(
                        .unsupportedExpression(
                            className: object.className, reason: "a user info key that is not a string"))
                }
                switch try archive.value(value) {
                case .string(let text)?: result[keyText] = text
                case .integer(let number)?: result[keyText] = String(number)
                case .real(let number)?: result[keyText] = String(number)
                case .bool(let flag)?: result[keyText] = flag ? "YES" : "NO"
                default:
                    throw MappingError(
                        .unsupportedExpression(
                            className: object.className,
                            reason: "the user info value of '\(keyText)' is not a string or number"))
                }
            }
            return result
        } catch let error as BinaryPropertyList.FormatError {
            throw MappingError(.unreadableArchive(error.reason))
        } catch let error as MappingError {
            throw error
        } catch {
            throw MappingError(.unreadableArchive("\(error)"))
        }
    }
}
