package dev.portcullis.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.portcullis.admin.AdminSchema;
import dev.portcullis.admin.SchemaField;
import dev.portcullis.api.ApiSchema;
import dev.portcullis.client.ClientSchema;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.junit.jupiter.api.Test;

/**
 * The admin API's OpenAPI document describes exactly the fields of the schemas: every member an answer, a
 * registration and a merge patch may hold, and the members a registration requires.
 */
class AdminOpenApiSchemaTest {

    @Test
    void clientSchemasThenTheOpenApiPropertiesAreTheSchemaFields() {
        agree(ClientSchema.SCHEMA, "Client", "NewClient", "ClientPatch", Set.of("client_secret"));
    }

    @Test
    void apiSchemasThenTheOpenApiPropertiesAreTheSchemaFields() {
        agree(ApiSchema.SCHEMA, "Api", "NewApi", "ApiPatch", Set.of());
    }

    /** {@code answerOnly}: members an answer may carry that are no field of the thing (a secret shown once). */
    private static void agree(AdminSchema<?> schema, String answer, String registration, String patch,
                              Set<String> answerOnly) {
        Set<String> all = new TreeSet<>(schema.fields().stream().map(SchemaField::name).toList());
        all.addAll(answerOnly);
        assertEquals(all, properties(answer), answer);
        assertEquals(new TreeSet<>(schema.registrationFields()), properties(registration), registration);
        assertEquals(new TreeSet<>(schema.patchFields()), properties(patch), patch);
        assertEquals(schema.fields().stream().filter(SchemaField::required).map(SchemaField::name)
                .collect(Collectors.toCollection(TreeSet::new)),
                new TreeSet<>(Arrays.asList(openApi(registration).requiredProperties())), registration + " required");
    }

    private static Set<String> properties(String name) {
        return Arrays.stream(openApi(name).properties()).map(SchemaProperty::name)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Schema openApi(String name) {
        return Arrays.stream(AdminApplication.class.getAnnotation(OpenAPIDefinition.class).components().schemas())
                .filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }
}
