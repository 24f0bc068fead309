import Foundation

/// Editing and writing JSON for files newsgen changes for the user (saved.json): members keep
/// their order and numbers their text, and the same value always gives the same bytes.
extension JSONNode {
    /// An object with these members, made by newsgen.
    package static func object(_ members: [(String, JSONNode)]) -> JSONNode {
        JSONNode(value: .object(members.map { Member(key: $0.0, value: $0.1) }))
    }

    package static func array(_ elements: [JSONNode]) -> JSONNode { JSONNode(value: .array(elements)) }

    package static func string(_ text: String) -> JSONNode { JSONNode(value: .string(text)) }

    /// Sets (or appends) a member of an object; `nil` removes it. Not an object: nothing changes.
    package mutating func set(_ key: String, _ newValue: JSONNode?) {
        guard case .object(var members) = value else { return }
        if let index = members.firstIndex(where: { $0.key == key }) {
            if let newValue { members[index].value = newValue } else { members.remove(at: index) }
        } else if let newValue {
            members.append(Member(key: key, value: newValue))
        }
        value = .object(members)
    }

    // MARK: - Writing

    /// Two-space indentation, keys in their order, a newline at the end: the same value always
    /// gives the same bytes.
    package func formatted() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output + "\n"
    }

    private func write(to output: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            for (index, member) in members.enumerated() {
                output += pad + Self.quoted(member.key) + ": "
                member.value.write(to: &output, indent: indent + 1)
                output += index < members.count - 1 ? ",\n" : "\n"
            }
            output += closing + "}"
        case .array(let items):
            guard !items.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += pad
                item.write(to: &output, indent: indent + 1)
                output += index < items.count - 1 ? ",\n" : "\n"
            }
            output += closing + "]"
        case .string(let string): output += Self.quoted(string)
        case .number(let number): output += numberText ?? (Int(exactly: number).map(String.init) ?? String(number))
        case .bool(let bool): output += bool ? "true" : "false"
        case .null: output += "null"
        }
    }

    package static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
