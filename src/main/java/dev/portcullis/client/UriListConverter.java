package dev.portcullis.client;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.util.List;

/**
 * Stores a list of URIs in one column, newline-separated (validated URIs never contain whitespace). One column
 * instead of a child table keeps a client to one row and one read on the token path.
 */
@Converter
public class UriListConverter implements AttributeConverter<List<String>, String> {

    @Override
    public String convertToDatabaseColumn(List<String> uris) {
        return uris == null ? "" : String.join("\n", uris);
    }

    @Override
    public List<String> convertToEntityAttribute(String column) {
        return parse(column);
    }

    /** The column's list. */
    static List<String> parse(String column) {
        return column == null || column.isEmpty() ? List.of() : List.of(column.split("\n"));
    }
}
