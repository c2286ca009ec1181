// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/*
 Writing back the members of an `UnknownKeys` property, once the value that declares it has
 encoded its properties. The model's own JSON comes first and wins; what was kept fills in
 around it:

 - a kept member whose key the model did not write is added, after the model's members;
 - a kept member whose key the model wrote as a property's value is left out;
 - a kept member where the model wrote a nested key's objects and arrays (`"ext.desc"`,
   `"info[1].zone"`, marked `holdsNestedKeys`) is merged into them, level by level: objects
   member by member, arrays element by element, by position. A position that the model only
   padded with `null` on its way to a higher index takes the kept element; a kept value of
   another kind than the model's container (an array where the model wrote an object) is left
   out.

 So with `"desc": "ext.desc"` and `"zone": "info[1].zone"`, and the kept members

     {"ext": {"other": 1}, "info": [{"a": 1}, {"b": 2}, 3]}

 the model's {"ext": {"desc": "d"}, "info": [null, {"zone": "z"}]} becomes

     {"ext": {"desc": "d", "other": 1}, "info": [{"a": 1}, {"zone": "z", "b": 2}, 3]}

 The merge descends only through the model's nested-key containers, so it recurses at most as
 deep as the longest nested key of the mapping; kept values below are copied as they are.
 */

extension TreeEncoder {
    /// Writes the members of the ``UnknownKeys`` properties of the value just encoded into its
    /// object, after its properties; see the top of this file for what wins where.
    ///
    /// Also those of values nested in it that were encoded through `superEncoder()` or
    /// `superEncoder(forKey:)`, whose `encode(to:)` the model calls itself, so that no call
    /// of the encoder's own ends them: their nodes were made while this value was encoded, after
    /// its own node, and they are finished once it is.
    @inline(never)
    func writeUnknownKeysSlowPath(into node: Int32) throws {
        while let last = tree.pendingUnknownKeys.last, last.node >= node {
            tree.pendingUnknownKeys.removeLast()
            let node = last.node
            if tree.nodes[Int(node)].kind == .unset { tree.makeObject(node) }
            // A value written over the object since (an array, a scalar) keeps no members.
            guard tree.nodes[Int(node)].kind == .object else { continue }
            for (key, value) in last.members {
                let (member, existed) = tree.member(key, of: node)
                if !existed { tree.writeNullForAbsentMember(spelledLike: key, in: node) }
                if existed {
                    try merge(kept: value, into: member, path: EncoderPathNode.root.appending(AnyCodingKey(key)))
                } else {
                    // Server data, written as it came: no key strategy for the keys inside it.
                    try insert(value, into: member, key: AnyCodingKey(key))
                }
            }
        }
    }

    /// Merges a kept value into a node the model wrote: only into the objects and arrays of its
    /// nested keys, and into the `null` elements that pad such an array; a property's own value
    /// wins.
    private func merge(kept: JSONValue, into node: Int32, path: EncoderPathNode) throws {
        let written = tree.nodes[Int(node)]
        guard written.holdsNestedKeys else { return }
        switch (written.kind, kept) {
        case (.null, _):
            // A position that the model skipped on its way to a higher index.
            tree.clear(node)
            try insert(kept, into: node, path: path)
        case (.object, .object(let members)):
            for (key, value) in members {
                let memberPath = path.appending(DictionaryCodingKey(key, hasIntValue: false))
                let (member, existed) = tree.member(key, of: node)
                if existed {
                    try merge(kept: value, into: member, path: memberPath)
                } else {
                    try insert(value, into: member, path: memberPath)
                }
            }
        case (.array, .array(let elements)):
            var element = tree.nodes[Int(node)].firstChild
            for (position, value) in elements.enumerated() {
                let elementPath = path.appending(IndexCodingKey(position))
                if element >= 0 {
                    try merge(kept: value, into: element, path: elementPath)
                    element = tree.nodes[Int(element)].nextSibling
                } else {
                    try insert(value, into: tree.appendElement(to: node), path: elementPath)
                }
            }
        default:
            // A container of another kind than the kept value: the model's wins.
            return
        }
    }
}

/// A `nil` optional property that the encoder left out of an object.
struct AbsentMember {
    /// The object node.
    let node: Int32
    /// The property's coding key.
    let propertyName: String
    /// Its key in the JSON, through the key strategy, when no key mapping applies.
    let jsonKey: String
    /// The key mapping of the type, when it has one.
    let plan: KeyPlan?
}

extension EncodingTree {
    /// Writes `null` for a `nil` optional left out of `object` whose key has `keptKey` as another
    /// spelling, which loose matching would find: decoding the JSON again would read the kept
    /// member in its place and turn `nil` into its value. Written `null`, the property reads
    /// `null` under its own key, as it did the first time, and the kept member stays kept.
    func writeNullForAbsentMember(spelledLike keptKey: String, in object: Int32) {
        var position = absentMembers.count - 1
        while position >= 0, absentMembers[position].node >= object {
            let absent = absentMembers[position]
            position -= 1
            guard absent.node == object, let key = absent.writtenKey(ifSpelledLike: keptKey) else { continue }
            let (member, existed) = self.member(key, of: object)
            if !existed { setNull(member) }
        }
    }

    /// Forgets the `nil` optionals left out of the objects of a finished value.
    func finishAbsentMembers(of node: Int32) {
        while let last = absentMembers.last, last.node >= node { absentMembers.removeLast() }
    }
}

extension AbsentMember {
    /// The key the property is written under, when `keptKey` is another spelling of one of the
    /// keys the decoder looks the property up by (ignoring case and separators), or `nil`.
    func writtenKey(ifSpelledLike keptKey: String) -> String? {
        let looksUp: [String]
        let written: String
        switch plan?.entry(for: propertyName) {
        case .ignored?:
            return nil
        case .sources(let sources)?:
            // The candidates of one step; the first is where the encoder writes the property.
            looksUp = sources.compactMap { $0.count == 1 && $0[0].index == nil ? $0[0].text : nil }
            guard let first = sources.first, first.count == 1, first[0].index == nil else { return nil }
            written = first[0].text
        case nil:
            written = plan?.strategyKey(for: propertyName)?.text ?? jsonKey
            looksUp = [propertyName, written]
        }
        let matches = looksUp.contains {
            $0 != keptKey && JSONTree.looselyEqual(Array($0.utf8), Array(keptKey.utf8))
        }
        return matches && written != keptKey ? written : nil
    }
}
