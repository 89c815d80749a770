package io.kubepekko.api.auth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The static tokens of {@code --token-auth-file}, read as kube's {@code tokenfile} reads them: CSV
 * records {@code token,user,uid[,"group1,group2"]}, further columns ignored. A record with an empty
 * token is skipped with a warning; a token listed twice keeps its last record, with a warning; a
 * record of fewer than three columns or a CSV syntax error fails the whole file (kube-apiserver
 * then does not start). There are no comment lines: {@code #} starts an ordinary token.
 *
 * @param users each token's user, in file order
 */
public record TokenFile(Map<String, UserInfo> users) {

    public TokenFile {
        users = Collections.unmodifiableMap(new LinkedHashMap<>(users));
    }

    /** The result of reading a token file. */
    public sealed interface Parse {}

    /**
     * @param file the tokens
     * @param warnings kube's warnings (empty and duplicate tokens), for the log
     */
    public record Parsed(TokenFile file, List<String> warnings) implements Parse {
        public Parsed {
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * @param error kube's error: the server does not start
     */
    public record Failed(String error) implements Parse {}

    /**
     * Reads a token file's text.
     *
     * @param path the file's name, for messages
     * @param text the whole file
     */
    public static Parse parse(String path, String text) {
        GoCsv.Read read = GoCsv.read(text);
        if (read.error() != null) {
            return new Failed(read.error());
        }
        Map<String, UserInfo> users = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        int recordNumber = 0;
        for (List<String> record : read.records()) {
            if (record.size() < 3) {
                return new Failed(
                        "token file '"
                                + path
                                + "' must have at least 3 columns (token, user name, user uid),"
                                + " found "
                                + record.size());
            }
            recordNumber++;
            String token = record.get(0);
            if (token.isEmpty()) {
                warnings.add(
                        "empty token has been found in token file '"
                                + path
                                + "', record number '"
                                + recordNumber
                                + "'");
                continue;
            }
            if (users.containsKey(token)) {
                warnings.add(
                        "duplicate token has been found in token file '"
                                + path
                                + "', record number '"
                                + recordNumber
                                + "'");
                users.remove(token);
            }
            // kube splits the fourth column as is: an empty column is one empty group name.
            List<String> groups =
                    record.size() >= 4 ? Arrays.asList(record.get(3).split(",", -1)) : List.of();
            String name = record.get(1);
            if (name.isEmpty()) {
                // kube accepts a nameless user; ours must have a name, so the token never matches.
                warnings.add(
                        "empty user name in token file '"
                                + path
                                + "', record number '"
                                + recordNumber
                                + "': token ignored");
                continue;
            }
            users.put(token, new UserInfo(name, record.get(2), groups, Map.of()));
        }
        return new Parsed(new TokenFile(users), warnings);
    }
}
