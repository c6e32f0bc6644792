import Foundation
import StepwiseModel
import Testing

/// `encodeEveryKey(_:)`, the one home of "every key, absent values as `null`" behind the JSON of
/// the reports, diffs and commands.
@Suite("KeyedEncodingContainer.encodeEveryKey")
struct KeyedEncodingContainerEveryKeyTests {
    /// The fields every encoding below writes: optionals, a date, a dictionary, a nested value.
    struct Fields {
        var entity = "Post"
        var property: String?
        var count: Int?
        var shippedAt: Date? = Date(timeIntervalSince1970: 1_700_000_000)
        var hashes = ["Post": "abc=", "Tag": "def="]
        var parent: Parent? = Parent(name: "Item")
    }

    struct Parent: Encodable {
        var name: String
    }

    enum CodingKeys: String, CodingKey {
        case entity, property, count, shippedAt, hashes, parent
    }

    /// Encoded with `encodeEveryKey(_:)`.
    struct EveryKey: Encodable {
        var fields: Fields

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeEveryKey([
                .entity: fields.entity, .property: fields.property, .count: fields.count,
                .shippedAt: fields.shippedAt, .hashes: fields.hashes, .parent: fields.parent,
            ])
        }
    }

    /// Encoded as the types did before, one `encode(_:forKey:)` per key.
    struct OneCallPerKey: Encodable {
        var fields: Fields

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(fields.entity, forKey: .entity)
            try container.encode(fields.property, forKey: .property)
            try container.encode(fields.count, forKey: .count)
            try container.encode(fields.shippedAt, forKey: .shippedAt)
            try container.encode(fields.hashes, forKey: .hashes)
            try container.encode(fields.parent, forKey: .parent)
        }
    }

    /// Sorted keys, as the command-line tool writes JSON, and dates in ISO 8601: a strategy each
    /// value must still go through.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aNilValueIsWrittenAsNullUnderItsKey() throws {
        let fields = Fields(property: nil, count: 3, shippedAt: nil, parent: nil)
        #expect(
            try Self.json(EveryKey(fields: fields))
                == #"{"count":3,"entity":"Post","hashes":{"Post":"abc=","Tag":"def="},"parent":null,"property":null,"shippedAt":null}"#
        )
    }

    @Test func theBytesAreThoseOfOneEncodeCallPerKey() throws {
        for fields in [Fields(), Fields(property: "title", count: 0), Fields(shippedAt: nil, parent: nil)] {
            #expect(try Self.json(EveryKey(fields: fields)) == Self.json(OneCallPerKey(fields: fields)))
        }
    }
}
