package org.jmca.rte.launcher;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * The main method of a class as the {@code java} launcher of JDK 25 chooses and runs it (JLS
 * 12.1.4, JEP 512), for thread ranks, which a launcher of their own does not start: a non-private
 * {@code main(String[])} declared in the class or a superclass, else a non-private {@code main()};
 * static, or an instance method called on an instance made with the class's non-private
 * constructor without parameters. The class and the method need not be public. Rank processes are
 * started by {@code java} itself, which applies the same rules.
 */
final class MainMethod {
    private final Class<?> type;
    private final Method method;

    private MainMethod(Class<?> type, Method method) {
        this.type = type;
        this.method = method;
    }

    /** A class java would not run: the message is what java's error says, without its "Error: ". */
    static final class NotRunnable extends IllegalArgumentException {
        NotRunnable(String message) {
            super(message);
        }
    }

    /**
     * The method {@code java} would run for {@code type}.
     *
     * @throws NotRunnable naming the class and what was looked for, where it has none
     */
    static MainMethod of(Class<?> type) {
        Method method = find(type, String[].class);
        if (method == null) {
            method = find(type);
        }
        if (method == null) {
            throw new NotRunnable("Main method not found in class " + type.getName() + ", please define the main"
                    + " method as: public static void main(String[] args) (java 25 also runs a non-private main(String[])"
                    + " or main(), static or an instance method, declared in the class or a superclass)");
        }
        if (!Modifier.isStatic(method.getModifiers())) {
            if (Modifier.isAbstract(type.getModifiers())) {
                throw new NotRunnable("Abstract class " + type.getName() + " has an instance main method, and java"
                        + " cannot make an instance of it to call it on");
            }
            if (constructor(type) == null) {
                throw new NotRunnable("Class " + type.getName() + " has an instance main method but no non-private"
                        + " constructor without parameters, which java calls to make the instance");
            }
        }
        method.setAccessible(true); // a class or a method that is not public, as java runs them
        return new MainMethod(type, method);
    }

    /** Runs the method with {@code args} (left out for a {@code main()}); what it throws comes out as it is. */
    void run(String[] args) throws Throwable {
        try {
            Object target = null;
            if (!Modifier.isStatic(method.getModifiers())) {
                Constructor<?> constructor = constructor(type);
                constructor.setAccessible(true);
                target = constructor.newInstance();
            }
            if (method.getParameterCount() == 0) {
                method.invoke(target);
            } else {
                method.invoke(target, (Object) args);
            }
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** A non-private method {@code main(parameters)} returning void, declared in {@code type} or the nearest superclass. */
    private static Method find(Class<?> type, Class<?>... parameters) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod("main", parameters);
                if (!Modifier.isPrivate(m.getModifiers()) && m.getReturnType() == void.class) {
                    return m;
                }
            } catch (NoSuchMethodException e) {
                // on to the superclass
            }
        }
        return null;
    }

    private static Constructor<?> constructor(Class<?> type) {
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            return Modifier.isPrivate(constructor.getModifiers()) ? null : constructor;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
