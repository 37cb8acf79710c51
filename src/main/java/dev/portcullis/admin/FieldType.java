package dev.portcullis.admin;

/** The JSON type of a field of the admin API, which decides how a request's member is read and how it is typed. */
public enum FieldType {
    /** A string without control characters. */
    STRING,
    /** An array of strings. */
    STRING_LIST,
    /** true or false. */
    BOOLEAN,
    /** A JSON object, kept as its text. */
    OBJECT,
    /** A whole number (epoch seconds in the answers). */
    INTEGER
}
