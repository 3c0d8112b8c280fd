package dev.quiver.structure;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The types a module's public API names: for every public class of an unqualified export, its supertypes and
 * the generic types of its public and protected fields, constructors and methods (parameters, returns,
 * exceptions, type variable bounds), nested types included. Finds those a predicate refuses, such as SPI or
 * backend types showing through. Stateless.
 */
final class PublicSignatures {
    private PublicSignatures() {}

    /**
     * @param classes   the module's compiled classes (a directory with {@code module-info.class})
     * @param loader    where to load them from
     * @param forbidden the type names that must not appear
     * @return one line per use of a forbidden type: {@code Device.backend() returns dev.quiver.spi.BackendDevice}
     */
    static List<String> naming(Path classes, ClassLoader loader, Predicate<String> forbidden) {
        ModuleDescriptor module = ModuleFinder.of(classes).findAll().iterator().next().descriptor();
        Set<String> exported = new HashSet<>();
        module.exports().stream().filter(e -> !e.isQualified()).forEach(e -> exported.add(e.source()));
        Set<String> found = new TreeSet<>();
        for (ClassFile file : CompiledClasses.under(classes)) {
            if (!exported.contains(file.packageName())) {
                continue;
            }
            Class<?> type;
            try {
                type = Class.forName(file.name(), false, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            if (visible(type)) {
                scan(type, forbidden, found);
            }
        }
        return new ArrayList<>(found);
    }

    private static boolean visible(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
            if (!Modifier.isPublic(c.getModifiers()) && !(c != type && Modifier.isProtected(c.getModifiers()))) {
                return false;
            }
        }
        return !type.isSynthetic() && !type.isAnonymousClass() && !type.isLocalClass();
    }

    private static void scan(Class<?> type, Predicate<String> forbidden, Set<String> found) {
        String name = type.getName().replaceFirst("^dev\\.quiver\\.", "");
        check(type.getGenericSuperclass(), name + " extends", forbidden, found);
        for (Type implemented : type.getGenericInterfaces()) {
            check(implemented, name + " implements", forbidden, found);
        }
        for (Field field : type.getDeclaredFields()) {
            if (exposed(field.getModifiers(), type) && !field.isSynthetic()) {
                check(field.getGenericType(), name + "." + field.getName() + " is", forbidden, found);
            }
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (exposed(constructor.getModifiers(), type)) {
                executable(constructor, name + "(...)", forbidden, found);
            }
        }
        for (Method method : type.getDeclaredMethods()) {
            if (exposed(method.getModifiers(), type) && !method.isSynthetic() && !method.isBridge()) {
                executable(method, name + "." + method.getName() + "(...)", forbidden, found);
                check(method.getGenericReturnType(), name + "." + method.getName() + "(...) returns", forbidden, found);
            }
        }
    }

    private static boolean exposed(int modifiers, Class<?> owner) {
        return Modifier.isPublic(modifiers) || (Modifier.isProtected(modifiers) && !Modifier.isFinal(owner.getModifiers()));
    }

    private static void executable(Executable executable, String where, Predicate<String> forbidden, Set<String> found) {
        for (Type parameter : executable.getGenericParameterTypes()) {
            check(parameter, where + " takes", forbidden, found);
        }
        for (Type thrown : executable.getGenericExceptionTypes()) {
            check(thrown, where + " throws", forbidden, found);
        }
        for (TypeVariable<?> variable : executable.getTypeParameters()) {
            for (Type bound : variable.getBounds()) {
                check(bound, where + " bounds " + variable.getName() + " by", forbidden, found);
            }
        }
    }

    private static void check(Type type, String where, Predicate<String> forbidden, Set<String> found) {
        switch (type) {
            case null -> { }
            case Class<?> c when c.isArray() -> check(c.getComponentType(), where, forbidden, found);
            case Class<?> c -> {
                if (forbidden.test(c.getName())) {
                    found.add(where + " " + c.getName());
                }
            }
            case ParameterizedType p -> {
                check(p.getRawType(), where, forbidden, found);
                for (Type argument : p.getActualTypeArguments()) {
                    check(argument, where, forbidden, found);
                }
            }
            case GenericArrayType a -> check(a.getGenericComponentType(), where, forbidden, found);
            case WildcardType w -> {
                for (Type bound : w.getUpperBounds()) {
                    check(bound, where, forbidden, found);
                }
                for (Type bound : w.getLowerBounds()) {
                    check(bound, where, forbidden, found);
                }
            }
            case TypeVariable<?> v -> { }
            default -> { }
        }
    }
}
