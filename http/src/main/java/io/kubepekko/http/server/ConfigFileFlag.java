package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import io.kubepekko.api.flags.Flag;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * The operator's configuration file, named by {@code --config} or by {@code -Dconfig.file}: found,
 * parsed (not yet resolved) and refused in the flags' wording. Kept apart from the flag table
 * because it also reads system properties, which no other flag does.
 */
final class ConfigFileFlag {
    private ConfigFileFlag() {}

    /**
     * {@code -Dconfig.file} names the configuration file as {@code --config} does (Typesafe
     * Config's own property, which the server's layered configuration would otherwise ignore); both
     * at once, or the resource and URL forms, are refused rather than one silently ignored.
     */
    static Config fileFromSystemProperties(Config flag, Properties properties)
            throws ApiServerFlags.UsageException {
        for (String unsupported : List.of("config.resource", "config.url")) {
            if (properties.getProperty(unsupported) != null) {
                throw new ApiServerFlags.UsageException(
                        "-D" + unsupported + " is not supported: name the file with --config");
            }
        }
        String path = properties.getProperty("config.file");
        if (path == null) {
            return flag;
        }
        if (flag != null) {
            throw new ApiServerFlags.UsageException(
                    "--config and -Dconfig.file both name a configuration file: give one");
        }
        try {
            return configFile(path);
        } catch (Flag.InvalidValue e) {
            throw new ApiServerFlags.UsageException(
                    "invalid value \"" + path + "\" for -Dconfig.file: " + e.getMessage());
        }
    }

    /**
     * The operator's HOCON file, parsed (its includes relative to it); resolved later, over the
     * rest.
     */
    static Config configFile(String value) throws Flag.InvalidValue {
        Path path = Path.of(value);
        if (!Files.isRegularFile(path)) {
            throw new Flag.InvalidValue(value, Files.exists(path) ? "not a file" : "no such file");
        }
        try {
            return ConfigFactory.parseFile(
                    path.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
        } catch (ConfigException e) {
            throw new Flag.InvalidValue(value, oneLine(e.getMessage()));
        }
    }

    /** A Typesafe Config message on one line, as the flag errors are printed. */
    static String oneLine(String message) {
        return message.replaceAll("\\s*\\R\\s*", " ");
    }
}
