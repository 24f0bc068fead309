import Foundation
import NewsgenModel
import NewsgenRender

extension Manifest {
    /// The lines of one kind of record as a manifest's file had them, in its order, each with
    /// its line break: where they are in the file's bytes, which they keep.
    ///
    /// A site that gained a story has a handful of records that changed among ten thousand that
    /// did not, and the line of a record that did not change is the line the last manifest has:
    /// the next manifest's text is these lines, copied in runs, with the changed records' lines
    /// put in their places (`splicing`), rather than every record sorted and written again.
    package struct RecordLines: Sendable {
        /// The file's bytes (set once it is read).
        var bytes = Data()
        /// Where the first line starts in `bytes`.
        private var start = 0
        /// Each record's path, in the file's order.
        private var paths: [String] = []
        /// Where each record's line ends in `bytes`, its line break included; the next line
        /// starts there.
        private var ends: [Int] = []
        /// Whether the paths are in increasing order, as newsgen writes them (a path's place
        /// among them is then found by bisection), and their lines one after the other. Lines
        /// otherwise are not spliced.
        private(set) var inOrder = true

        /// How many records.
        var count: Int { paths.count }

        /// Room for `records` lines: ten thousand records' places, grown one by one, were copied
        /// into larger arrays a dozen times.
        init(reservingCapacity records: Int = 0) {
            paths.reserveCapacity(records)
            ends.reserveCapacity(records)
        }

        /// Adds the line of the record of `path`: its bytes in the file, without the line break
        /// that follows them.
        mutating func append(_ line: Slice<UnsafeBufferPointer<UInt8>>, path: String) {
            if let last = paths.last {
                if !(last < path) || ends.last != line.startIndex { inOrder = false }
            } else {
                start = line.startIndex
            }
            paths.append(path)
            ends.append(line.endIndex + 1)
        }

        /// These lines without those of the `dropped` paths, with the `fresh` lines (of distinct
        /// paths, each replacing the line of its path) put in their places in the order of the
        /// paths; `nil` when these lines are not in that order. Also how many lines it has. The
        /// runs of lines kept are the file's own bytes, not copies (`Text`).
        func splicing(dropping dropped: some Sequence<String>, adding fresh: [(path: String, line: [UInt8])]) -> (text: Text, count: Int)? {
            guard inOrder else { return nil }
            let fresh = fresh.sorted { $0.path < $1.path }
            // Where each fresh line goes: before the first line whose path is not before its own.
            let places = fresh.map { place(of: $0.path) }
            var skipped = Set<Int>()
            for path in dropped {
                let place = place(of: path)
                if place < paths.count, paths[place] == path { skipped.insert(place) }
            }
            for (line, place) in zip(fresh, places) where place < paths.count && paths[place] == line.path {
                skipped.insert(place)
            }
            // Cut where a line is skipped or a fresh one goes; the lines between cuts are taken at once.
            let cuts = (Array(skipped) + places).sorted()
            var text = Text()
            var copied = 0, added = 0
            for cut in cuts + [paths.count] {
                if cut > copied {
                    text.append(read: bytes[bytes.startIndex + start(of: copied)..<bytes.startIndex + ends[cut - 1]])
                    copied = cut
                }
                // The fresh lines placed here, then this line left out when it is skipped.
                while added < fresh.count, places[added] == cut {
                    text.append(fresh[added].line)
                    added += 1
                }
                if cut == copied, skipped.contains(cut) { copied = cut + 1 }
            }
            assert(added == fresh.count)
            return (text, paths.count - skipped.count + fresh.count)
        }

        private func start(of line: Int) -> Int {
            line == 0 ? start : ends[line - 1]
        }

        /// The place of the first path that is not before `path`.
        private func place(of path: String) -> Int {
            var (low, high) = (0, paths.count)
            while low < high {
                let middle = (low + high) / 2
                if paths[middle] < path { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The text of the manifest of a site whose files were all carried as `previous` records
    /// them but the `rendered` ones, staged in a folder pruned from its record, whose folders'
    /// lines are `recordedFolders`: `previous`'s lines with the rendered files' and the folders
    /// above a changed name (`changed`, the rendered paths and those the staging added,
    /// replaced or removed) examined again, below `folder`. The same text as `recording`'s
    /// (`textParts`), without making ten thousand unchanged lines again.
    ///
    /// `nil` when the lines cannot be spliced (not in order, not kept), when a file or folder
    /// cannot be examined, or when the result would not record every path of the site (or
    /// every one of its folders) once: the manifest is then recorded as a whole.
    static func splicedText(_ fingerprints: [String: Fingerprint], rendered: [String], previous: Manifest,
                            recordedFolders: RecordLines, changed: [String], layout: SiteLayout, examining folder: OpenFolder,
                            output: URL, input: Fingerprint?) -> Text? {
        guard let previousFiles = previous.fileLines else { return nil }
        let root = folder.descriptor
        var freshFiles: [(path: String, line: [UInt8])] = []
        for path in rendered {
            guard let fingerprint = fingerprints[path], let disk = stat(path, in: root) else { return nil }
            freshFiles.append((path, line(path, Entry(fingerprint: fingerprint, inode: disk.inode, size: disk.size, modified: disk.modified))))
        }
        // The files the site no longer has, looked for only when the counts say there are some:
        // every path not rendered is carried, and so recorded by `previous`.
        var droppedFiles = rendered
        let renderedBefore = rendered.count { previous.files[$0] != nil }
        if previous.files.count - renderedBefore != fingerprints.count - rendered.count {
            droppedFiles += previous.files.keys.filter { fingerprints[$0] == nil }
        }
        guard let files = previousFiles.splicing(dropping: droppedFiles, adding: freshFiles), files.count == fingerprints.count
        else { return nil }

        // A folder's identity moves only when a name in it is added, removed or renamed: those
        // above a changed name are examined again, the others are as recorded.
        let examined = SitePathFolders.folders(holding: rendered + changed, includingRoot: true)
        var freshFolders: [(path: String, line: [UInt8])] = []
        for path in examined where layout.folders.contains(path) {
            guard let found = folderStat(path.isEmpty ? "." : path, in: root) else { return nil }
            freshFolders.append((path, line(path, found)))
        }
        guard let folders = recordedFolders.splicing(dropping: Array(examined) + changed, adding: freshFolders),
              folders.count == layout.folders.count
        else { return nil }
        var text = Text()
        text.append(headerText(output: output.standardizedFileURL.path, input: input))
        text.append(folders.text)
        text.append(files.text)
        return text
    }
}
