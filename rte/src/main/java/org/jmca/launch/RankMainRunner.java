package org.jmca.launch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Base64;

/**
 * The main class of a rank that runs a {@link RankMain}: its first argument is the lambda,
 * serialized and in Base64, the others are the program's. The lambda is read with the rank's
 * class loader (the thread's context loader: a thread rank's own), so its class, and the statics
 * it touches, are the rank's.
 */
public final class RankMainRunner {
    private RankMainRunner() {
    }

    public static void main(String[] args) throws Exception {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        byte[] bytes = Base64.getDecoder().decode(args[0]);
        RankMain body;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass description) throws ClassNotFoundException {
                return Class.forName(description.getName(), false, loader);
            }
        }) {
            body = (RankMain) in.readObject();
        }
        body.run(Arrays.copyOfRange(args, 1, args.length));
    }

    /** {@code body} as the first argument of {@link #main}. */
    static String encode(RankMain body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(body);
        } catch (NotSerializableException e) {
            throw new IllegalArgumentException("the rank's lambda captures " + e.getMessage()
                    + ", which is not serializable: it must travel to every rank", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("the rank's lambda cannot be serialized: " + e.getMessage(), e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** The class that wrote the lambda {@code body}, whose copy every rank loads. */
    static Class<?> writer(RankMain body) {
        try {
            Method replace = body.getClass().getDeclaredMethod("writeReplace");
            replace.setAccessible(true);
            SerializedLambda lambda = (SerializedLambda) replace.invoke(body);
            return Class.forName(lambda.getCapturingClass().replace('/', '.'), false, body.getClass().getClassLoader());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return body.getClass(); // a class implementing RankMain rather than a lambda
        }
    }
}
