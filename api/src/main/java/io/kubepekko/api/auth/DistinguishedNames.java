package io.kubepekko.api.auth;

import java.util.ArrayList;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/** Reads attribute values out of a certificate's subject, in the order the certificate has them. */
final class DistinguishedNames {
    private DistinguishedNames() {}

    /**
     * The values of attribute {@code type} (e.g. {@code CN}, {@code O}) in encoding order, as Go's
     * {@code pkix.Name} collects them.
     */
    static List<String> values(X500Principal subject, String type) {
        List<String> values = new ArrayList<>();
        try {
            // LdapName lists the RDNs right to left of the RFC 2253 text: the certificate's order.
            for (Rdn rdn : new LdapName(subject.getName(X500Principal.RFC2253)).getRdns()) {
                if (rdn.getType().equalsIgnoreCase(type) && rdn.getValue() instanceof String s) {
                    values.add(s);
                }
            }
        } catch (InvalidNameException e) {
            return List.of();
        }
        return values;
    }
}
