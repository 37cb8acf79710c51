package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.portcullis.client.LogoutNotifications;
import dev.portcullis.page.ContentSecurityPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrontChannelLogoutTest {

    private static final String ISS = "https://id.example.com/realm a";
    private static final String SID = "s1-d_x";

    private static LogoutNotifications front(String uri, boolean sessionRequired) {
        return new LogoutNotifications(null, true, uri, sessionRequired);
    }

    @Test
    void issAndSidAreAddedAsQueryParametersWhenTheClientRequiresTheSession() {
        assertEquals("https://rp.example.com/fc?iss=https%3A%2F%2Fid.example.com%2Frealm+a&sid=s1-d_x",
                FrontChannelLogout.uri("https://rp.example.com/fc", true, ISS, SID));
        assertEquals("https://rp.example.com/fc?app=1&iss=https%3A%2F%2Fid.example.com%2Frealm+a&sid=s1-d_x",
                FrontChannelLogout.uri("https://rp.example.com/fc?app=1", true, ISS, SID), "the query kept");
        assertEquals("https://rp.example.com/fc?iss=https%3A%2F%2Fid.example.com%2Frealm+a&sid=s1-d_x",
                FrontChannelLogout.uri("https://rp.example.com/fc?", true, ISS, SID), "an empty query");
        assertEquals("https://rp.example.com/fc?a=1&", FrontChannelLogout.uri("https://rp.example.com/fc?a=1&", false,
                ISS, SID), "as registered when the session is not required");
    }

    @Test
    void onlyClientsWithAFrontChannelUriAreLoadedAndNoneRequiringASidTheSessionLacks() {
        List<LogoutNotifications> clients = List.of(front("https://a.example.com/fc", true), LogoutNotifications.NONE,
                new LogoutNotifications("https://b.example.com/bc", true, null, true),
                front("http://127.0.0.1:8081/fc", false));
        assertEquals(List.of("https://a.example.com/fc?iss=https%3A%2F%2Fid.example.com%2Frealm+a&sid=s1-d_x",
                "http://127.0.0.1:8081/fc"), FrontChannelLogout.uris(clients, ISS, SID));
        assertEquals(List.of("http://127.0.0.1:8081/fc"), FrontChannelLogout.uris(clients, ISS, null));
        assertEquals(List.of(), FrontChannelLogout.uris(List.of(LogoutNotifications.NONE), ISS, SID));
    }

    @Test
    void theCspFramesExactlyTheOriginsOfTheLoadedUris() {
        String csp = FrontChannelLogout.contentSecurityPolicy(List.of("https://B.example.com/fc?iss=x&sid=y",
                "http://127.0.0.1:8081/fc", "https://b.example.com/other", "https://a.example.com:8443/fc"));
        assertEquals(ContentSecurityPolicy.PAGES + "; frame-src http://127.0.0.1:8081 https://a.example.com:8443 "
                + "https://b.example.com", csp);
        assertEquals(ContentSecurityPolicy.PAGES, FrontChannelLogout.contentSecurityPolicy(List.of()),
                "no frames: default-src 'none' forbids them");
    }
}
