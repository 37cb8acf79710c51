package dev.portcullis.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Direct JDBC access to the database the server under test uses, for assertions about what is (not) stored:
 * hashes instead of secrets, no half-written rows. The ITs' H2 URL has AUTO_SERVER (see ItEnvironment), so the
 * test JVM can open the file the server has open.
 */
public final class Db {

    private Db() {
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("portcullis.test.jdbc-url"),
                System.getProperty("portcullis.test.jdbc-user"), System.getProperty("portcullis.test.jdbc-password"));
    }

    /** Rows of a query, each as column (lower-case) to value. */
    public static List<Map<String, Object>> rows(String sql, Object... params) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                List<Map<String, Object>> out = new ArrayList<>();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.put(md.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT), rs.getObject(i));
                    }
                    out.add(row);
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static long count(String sql, Object... params) {
        Object v = rows(sql, params).get(0).values().iterator().next();
        return ((Number) v).longValue();
    }

    public static int update(String sql, Object... params) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
