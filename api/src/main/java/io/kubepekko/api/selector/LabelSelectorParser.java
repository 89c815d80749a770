package io.kubepekko.api.selector;

import io.kubepekko.api.selector.LabelSelector.Operator;
import io.kubepekko.api.selector.LabelSelector.Requirement;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The label selector grammar, tokenised and parsed the way apimachinery's {@code labels.Parse} does
 * it, so that the same inputs fail with the same messages: clients show them to users and some
 * tests compare them.
 *
 * <pre>
 *   selector    ::= requirement ("," requirement)*
 *   requirement ::= ["!"] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | "&gt;" | "&lt;") VALUE ]
 * </pre>
 */
final class LabelSelectorParser {

    private enum Token {
        ERROR,
        END,
        CLOSED_PAR,
        COMMA,
        DOES_NOT_EXIST,
        DOUBLE_EQUALS,
        EQUALS,
        GREATER_THAN,
        IDENTIFIER,
        IN,
        LESS_THAN,
        NOT_EQUALS,
        NOT_IN,
        OPEN_PAR
    }

    /** Whether {@code in}/{@code notin} are keywords (after a key) or plain values. */
    private enum Context {
        KEY_AND_OPERATOR,
        VALUES
    }

    private record Item(Token token, String literal) {}

    private static final Map<String, Token> LITERALS =
            Map.ofEntries(
                    Map.entry(")", Token.CLOSED_PAR),
                    Map.entry(",", Token.COMMA),
                    Map.entry("!", Token.DOES_NOT_EXIST),
                    Map.entry("==", Token.DOUBLE_EQUALS),
                    Map.entry("=", Token.EQUALS),
                    Map.entry(">", Token.GREATER_THAN),
                    Map.entry("in", Token.IN),
                    Map.entry("<", Token.LESS_THAN),
                    Map.entry("!=", Token.NOT_EQUALS),
                    Map.entry("notin", Token.NOT_IN),
                    Map.entry("(", Token.OPEN_PAR));

    /** The binary operators, in the order Kubernetes lists them in "expected:" messages. */
    private static final String BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

    private final String input;
    private int pos;
    private final List<Item> items = new ArrayList<>();
    private int position;

    LabelSelectorParser(String input) {
        this.input = input;
    }

    /** Parses the whole input; requirements come back in input order. */
    List<Requirement> parse() {
        scan();
        try {
            return requirements();
        } catch (SyntaxError e) {
            throw ApiStatus.badRequest(e.getMessage()).exception();
        }
    }

    private List<Requirement> requirements() {
        List<Requirement> out = new ArrayList<>();
        while (true) {
            Item next = lookahead(Context.VALUES);
            switch (next.token()) {
                case IDENTIFIER, DOES_NOT_EXIST -> {
                    out.add(requirementOrWrappedError());
                    Item after = consume(Context.VALUES);
                    switch (after.token()) {
                        case END -> {
                            return out;
                        }
                        case COMMA -> {
                            Item t = lookahead(Context.VALUES);
                            if (t.token() != Token.IDENTIFIER
                                    && t.token() != Token.DOES_NOT_EXIST) {
                                throw found(t, "identifier after ','");
                            }
                        }
                        default -> throw found(after, "',' or 'end of string'");
                    }
                }
                case END -> {
                    return out;
                }
                default -> throw found(next, "!, identifier, or 'end of string'");
            }
        }
    }

    private Requirement requirementOrWrappedError() {
        try {
            return requirement();
        } catch (SyntaxError | LabelSelector.RequirementException e) {
            throw new SyntaxError("unable to parse requirement: " + e.getMessage());
        }
    }

    private Requirement requirement() {
        Operator op = null;
        Item key = consume(Context.VALUES);
        if (key.token() == Token.DOES_NOT_EXIST) {
            op = Operator.DOES_NOT_EXIST;
            key = consume(Context.VALUES);
        }
        if (key.token() != Token.IDENTIFIER) {
            throw found(key, "identifier");
        }
        List<String> keyProblems = LabelRules.keyProblems(key.literal());
        if (!keyProblems.isEmpty()) {
            // The parser validates keys with a nil field path, which Go prints as "<nil>".
            throw new SyntaxError(
                    FieldError.invalid("<nil>", key.literal(), String.join("; ", keyProblems))
                            .toString());
        }
        Token next = lookahead(Context.VALUES).token();
        if ((next == Token.END || next == Token.COMMA) && op == null) {
            op = Operator.EXISTS;
        }
        if (op == Operator.EXISTS || op == Operator.DOES_NOT_EXIST) {
            return LabelSelector.newRequirement(key.literal(), op, List.of());
        }
        op = operator();
        List<String> values =
                op == Operator.IN || op == Operator.NOT_IN ? setValues() : exactValue();
        return LabelSelector.newRequirement(key.literal(), op, values);
    }

    private Operator operator() {
        Item item = consume(Context.KEY_AND_OPERATOR);
        return switch (item.token()) {
            case IN -> Operator.IN;
            case EQUALS -> Operator.EQUALS;
            case DOUBLE_EQUALS -> Operator.DOUBLE_EQUALS;
            case GREATER_THAN -> Operator.GREATER_THAN;
            case LESS_THAN -> Operator.LESS_THAN;
            case NOT_IN -> Operator.NOT_IN;
            case NOT_EQUALS -> Operator.NOT_EQUALS;
            default -> throw found(item, BINARY_OPERATORS);
        };
    }

    /**
     * {@code (a,b,,c)}: a set, so sorted and without duplicates; empty entries are the empty value.
     */
    private List<String> setValues() {
        Item open = consume(Context.VALUES);
        if (open.token() != Token.OPEN_PAR) {
            // Kubernetes' message lacks the colon here.
            throw new SyntaxError("found '" + open.literal() + "' expected: '('");
        }
        Item next = lookahead(Context.VALUES);
        switch (next.token()) {
            case IDENTIFIER, COMMA -> {
                TreeSet<String> values = identifiers();
                consume(Context.VALUES);
                return List.copyOf(values);
            }
            case CLOSED_PAR -> {
                consume(Context.VALUES);
                return List.of("");
            }
            default -> throw found(next, "',', ')' or identifier");
        }
    }

    /** Leaves the closing parenthesis unconsumed. */
    private TreeSet<String> identifiers() {
        TreeSet<String> values = new TreeSet<>();
        while (true) {
            Item item = consume(Context.VALUES);
            switch (item.token()) {
                case IDENTIFIER -> {
                    values.add(item.literal());
                    Item next = lookahead(Context.VALUES);
                    switch (next.token()) {
                        case COMMA -> {}
                        case CLOSED_PAR -> {
                            return values;
                        }
                        default -> throw found(next, "',' or ')'");
                    }
                }
                case COMMA -> {
                    if (values.isEmpty()) {
                        values.add("");
                    }
                    Token next = lookahead(Context.VALUES).token();
                    if (next == Token.CLOSED_PAR) {
                        values.add("");
                        return values;
                    }
                    if (next == Token.COMMA) {
                        values.add("");
                    }
                }
                default -> throw found(item, "',', or identifier");
            }
        }
    }

    private List<String> exactValue() {
        Token next = lookahead(Context.VALUES).token();
        if (next == Token.END || next == Token.COMMA) {
            return List.of("");
        }
        Item item = consume(Context.VALUES);
        if (item.token() == Token.IDENTIFIER) {
            return List.of(item.literal());
        }
        throw found(item, "identifier");
    }

    private static SyntaxError found(Item item, String expected) {
        return new SyntaxError("found '" + item.literal() + "', expected: " + expected);
    }

    private Item lookahead(Context context) {
        return inContext(items.get(Math.min(position, items.size() - 1)), context);
    }

    private Item consume(Context context) {
        Item item = items.get(Math.min(position, items.size() - 1));
        position++;
        return inContext(item, context);
    }

    private static Item inContext(Item item, Context context) {
        if (context == Context.VALUES
                && (item.token() == Token.IN || item.token() == Token.NOT_IN)) {
            return new Item(Token.IDENTIFIER, item.literal());
        }
        return item;
    }

    // ---- lexer ----

    private void scan() {
        while (true) {
            Item item = lex();
            items.add(item);
            if (item.token() == Token.END) {
                return;
            }
        }
    }

    /** Reads one character; NUL stands for the end, as in the Go lexer. */
    private char read() {
        if (pos < input.length()) {
            return input.charAt(pos++);
        }
        return 0;
    }

    private void unread() {
        pos--;
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean isSpecial(char c) {
        return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
    }

    private Item lex() {
        char c = read();
        while (isWhitespace(c)) {
            c = read();
        }
        if (c == 0) {
            return new Item(Token.END, "");
        }
        unread();
        return isSpecial(c) ? special() : identifierOrKeyword();
    }

    private Item identifierOrKeyword() {
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = read();
            if (c == 0) {
                break;
            }
            if (isSpecial(c) || isWhitespace(c)) {
                unread();
                break;
            }
            b.append(c);
        }
        String s = b.toString();
        Token keyword = LITERALS.get(s);
        return new Item(keyword != null ? keyword : Token.IDENTIFIER, s);
    }

    /** The longest run of special characters that still forms an operator. */
    private Item special() {
        StringBuilder b = new StringBuilder();
        Item last = null;
        while (true) {
            char c = read();
            if (c == 0) {
                break;
            }
            if (!isSpecial(c)) {
                unread();
                break;
            }
            b.append(c);
            Token t = LITERALS.get(b.toString());
            if (t != null) {
                last = new Item(t, b.toString());
            } else if (last != null) {
                unread();
                break;
            }
        }
        return last != null
                ? last
                : new Item(Token.ERROR, "error expected: keyword found '" + b + "'");
    }

    /**
     * A grammar error; becomes a 400 at the top. Not an {@link ApiException} so it can be
     * re-wrapped.
     */
    private static final class SyntaxError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SyntaxError(String message) {
            super(message, null, false, false);
        }
    }
}
