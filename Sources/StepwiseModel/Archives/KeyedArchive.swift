import Foundation

/// An `NSKeyedArchiver` archive, read as data: its objects, their class names and their keys,
/// without instantiating any class.
///
/// An archive is a binary property list with `$archiver` (`NSKeyedArchiver`), `$version`,
/// `$top` (the root objects by key, e.g. `root`) and `$objects`. Objects refer to each other
/// by UID, an index into `$objects`; index 0 is the string `$null`, which stands for nil. An
/// archived object is a dictionary whose `$class` refers to a class description with
/// `$classname` and `$classes` (the class and its superclasses).
///
/// Reading archives as data keeps decoding under Stepwise's control: swift-corelibs-foundation's
/// `NSKeyedUnarchiver` aborts the process on a missing key under its default failure policy,
/// and outside input must never do that.
package struct KeyedArchive: Sendable {
    /// `$objects`.
    package var objects: [BinaryPropertyList.Value]
    /// `$top`: the root objects' UIDs by key.
    package var top: [String: Int]

    /// An archived object: its class and its keys.
    package struct Object: Sendable {
        /// `$classname` of its class.
        package var className: String
        /// The keys and values, `$class` left out. UIDs stay UIDs: resolve them with
        /// ``KeyedArchive/object(_:)`` or ``KeyedArchive/value(_:)``.
        package var fields: [String: BinaryPropertyList.Value]
    }

    /// Reads an archive.
    package init(_ data: Data) throws(BinaryPropertyList.FormatError) {
        guard case .dictionary(let plist) = try BinaryPropertyList.decode(data) else {
            throw BinaryPropertyList.FormatError("not a keyed archive (its top object is not a dictionary)")
        }
        guard case .array(let objects)? = plist["$objects"], case .dictionary(let top)? = plist["$top"] else {
            throw BinaryPropertyList.FormatError("not a keyed archive (no $objects or $top)")
        }
        if case .string(let archiver)? = plist["$archiver"], archiver != "NSKeyedArchiver" {
            throw BinaryPropertyList.FormatError("an archive written by \(archiver), not NSKeyedArchiver")
        }
        self.objects = objects
        self.top = [:]
        for (key, value) in top {
            guard case .uid(let uid) = value else {
                throw BinaryPropertyList.FormatError("$top.\(key) is not a reference to an object")
            }
            self.top[key] = uid
        }
    }

    /// The value a UID refers to, with `$null` read as nil.
    package func value(_ uid: Int) throws(BinaryPropertyList.FormatError) -> BinaryPropertyList.Value? {
        guard uid >= 0, uid < objects.count else {
            throw BinaryPropertyList.FormatError("a reference to object \(uid) of \(objects.count)")
        }
        if case .string("$null") = objects[uid] { return nil }
        return objects[uid]
    }

    /// The archived object a UID refers to; nil for `$null`.
    /// - throws: when the UID refers to something that is not an archived object.
    package func object(_ uid: Int) throws(BinaryPropertyList.FormatError) -> Object? {
        guard let value = try value(uid) else { return nil }
        guard case .dictionary(var fields) = value, case .uid(let classUID)? = fields.removeValue(forKey: "$class")
        else {
            throw BinaryPropertyList.FormatError("object \(uid) is not an archived object (no $class)")
        }
        guard case .dictionary(let classInfo)? = try self.value(classUID),
            case .string(let className)? = classInfo["$classname"]
        else {
            throw BinaryPropertyList.FormatError("object \(uid) has a class without a $classname")
        }
        return Object(className: className, fields: fields)
    }

    /// The elements of an archived `NSArray`, `NSSet` or their mutable kinds (`NS.objects`), as UIDs.
    package func elements(of object: Object) throws(BinaryPropertyList.FormatError) -> [Int] {
        guard case .array(let elements)? = object.fields["NS.objects"] else {
            throw BinaryPropertyList.FormatError("\(object.className) has no NS.objects")
        }
        var uids: [Int] = []
        for element in elements {
            guard case .uid(let uid) = element else {
                throw BinaryPropertyList.FormatError("\(object.className) holds an element that is not a reference")
            }
            uids.append(uid)
        }
        return uids
    }

    /// The keys and values of an archived `NSDictionary` (`NS.keys`, `NS.objects`), as UIDs.
    package func entries(of object: Object) throws(BinaryPropertyList.FormatError) -> [(key: Int, value: Int)] {
        guard case .array(let keys)? = object.fields["NS.keys"] else {
            throw BinaryPropertyList.FormatError("\(object.className) has no NS.keys")
        }
        let values = try elements(of: object)
        guard keys.count == values.count else {
            throw BinaryPropertyList.FormatError(
                "\(object.className) has \(keys.count) keys for \(values.count) values")
        }
        var entries: [(key: Int, value: Int)] = []
        for (key, value) in zip(keys, values) {
            guard case .uid(let uid) = key else {
                throw BinaryPropertyList.FormatError("\(object.className) holds a key that is not a reference")
            }
            entries.append((uid, value))
        }
        return entries
    }
}
