/*
 * A JNI method that calls back into Java: dev.vtscope.thirdparty.NativeCallback.callBack(Runnable)
 * runs the Runnable from native code, so a virtual thread that blocks inside it has a native frame
 * on its stack and pins its carrier on every JDK.
 */
#include <jni.h>

JNIEXPORT void JNICALL
Java_dev_vtscope_thirdparty_NativeCallback_callBack(JNIEnv *env, jclass cls, jobject runnable) {
  jclass type = (*env)->GetObjectClass(env, runnable);
  jmethodID run = (*env)->GetMethodID(env, type, "run", "()V");
  if (run != NULL) {
    (*env)->CallVoidMethod(env, runnable, run);
  }
}
