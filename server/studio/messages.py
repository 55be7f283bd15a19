"""The studio's words in English and Arabic: one table, read by the templates and the forms."""

from __future__ import annotations

from server.i18n import Locale

MESSAGES: dict[str, dict[Locale, str]] = {
    "studio": {Locale.EN: "Studio", Locale.AR: "الاستوديو"},
    "sign_in": {Locale.EN: "Sign in", Locale.AR: "تسجيل الدخول"},
    "sign_in_local": {
        Locale.EN: "Sign in as local staff",
        Locale.AR: "الدخول كموظف محلي",
    },
    "sign_in_local_note": {
        Locale.EN: "Development mode on this computer only: no account needed.",
        Locale.AR: "وضع التطوير على هذا الحاسوب فقط: لا حاجة إلى حساب.",
    },
    "sign_in_google": {Locale.EN: "Sign in with Google", Locale.AR: "الدخول بحساب Google"},
    "google_failed": {
        Locale.EN: "Google sign-in did not finish. Try again, or use your email and password.",
        Locale.AR: "لم يكتمل الدخول بحساب Google. حاول مرة أخرى، أو استخدم بريدك وكلمة المرور.",
    },
    "email": {Locale.EN: "Email", Locale.AR: "البريد الإلكتروني"},
    "password": {Locale.EN: "Password", Locale.AR: "كلمة المرور"},
    "wrong_password": {
        Locale.EN: "That email and password did not sign you in.",
        Locale.AR: "لم يتم تسجيل الدخول بهذا البريد وكلمة المرور.",
    },
    "sign_out": {Locale.EN: "Sign out", Locale.AR: "تسجيل الخروج"},
    "other_language": {Locale.EN: "العربية", Locale.AR: "English"},
    "projects": {Locale.EN: "Projects", Locale.AR: "المشاريع"},
    "collabrations": {Locale.EN: "Collabrations", Locale.AR: "الشراكات"},
    "slider": {Locale.EN: "Slider photos", Locale.AR: "صور العرض"},
    "add": {Locale.EN: "Add", Locale.AR: "إضافة"},
    "edit": {Locale.EN: "Edit", Locale.AR: "تعديل"},
    "delete": {Locale.EN: "Delete", Locale.AR: "حذف"},
    "move_up": {Locale.EN: "Move up", Locale.AR: "انقل للأعلى"},
    "move_down": {Locale.EN: "Move down", Locale.AR: "انقل للأسفل"},
    "save": {Locale.EN: "Save", Locale.AR: "حفظ"},
    "cancel": {Locale.EN: "Cancel", Locale.AR: "إلغاء"},
    "empty_list": {Locale.EN: "Nothing here yet.", Locale.AR: "لا شيء هنا بعد."},
    "id": {Locale.EN: "Id (in the page's address)", Locale.AR: "المعرّف (في عنوان الصفحة)"},
    "id_made": {
        Locale.EN: "Made from the English name when you save; fixed once created.",
        Locale.AR: "يُصنع من الاسم الإنجليزي عند الحفظ، ولا يتغير بعد الإنشاء.",
    },
    "slide_id_made": {
        Locale.EN: "Made from the photo's file name when you save; fixed once created.",
        Locale.AR: "يُصنع من اسم ملف الصورة عند الحفظ، ولا يتغير بعد الإنشاء.",
    },
    "name": {Locale.EN: "Name (English)", Locale.AR: "الاسم (بالإنجليزية)"},
    "name_ar": {Locale.EN: "Name (Arabic)", Locale.AR: "الاسم (بالعربية)"},
    "description": {Locale.EN: "Description (English)", Locale.AR: "الوصف (بالإنجليزية)"},
    "description_ar": {Locale.EN: "Description (Arabic)", Locale.AR: "الوصف (بالعربية)"},
    "photo": {Locale.EN: "Photo", Locale.AR: "الصورة"},
    "photo_hint": {
        Locale.EN: "JPEG, PNG or WebP from the camera or the gallery, up to {mb} MB.",
        Locale.AR: "صورة JPEG أو PNG أو WebP من الكاميرا أو المعرض، حتى {mb} ميغابايت.",
    },
    "photo_keep": {
        Locale.EN: "Leave empty to keep the current photo.",
        Locale.AR: "اتركه فارغًا للإبقاء على الصورة الحالية.",
    },
    "photo_held": {
        Locale.EN: "The photo shown is kept for this form: Save uses it, or choose another.",
        Locale.AR: "الصورة المعروضة محفوظة لهذا النموذج: الحفظ يستخدمها، أو اختر غيرها.",
    },
    "preview": {Locale.EN: "Preview", Locale.AR: "معاينة"},
    "new_title": {Locale.EN: "New", Locale.AR: "جديد"},
    "delete_question": {
        Locale.EN: "Delete “{name}”? Visitors will no longer see it.",
        Locale.AR: "حذف «{name}»؟ لن يراه الزوار بعد الآن.",
    },
    "saved_live": {
        Locale.EN: "Saved. It is live on the site.",
        Locale.AR: "تم الحفظ. التغيير ظاهر على الموقع الآن.",
    },
    "saved_pending": {
        Locale.EN: "Saved. Putting it live…",
        Locale.AR: "تم الحفظ. جارٍ نشره على الموقع…",
    },
    "deleted_live": {
        Locale.EN: "Deleted. Visitors no longer see it.",
        Locale.AR: "تم الحذف. لم يعد الزوار يرونه.",
    },
    "deleted_pending": {
        Locale.EN: "Deleted. Taking it off the site…",
        Locale.AR: "تم الحذف. جارٍ إزالته من الموقع…",
    },
    "view_on_site": {Locale.EN: "See it on the site", Locale.AR: "شاهده على الموقع"},
    "form_has_errors": {
        Locale.EN: "Nothing was saved. Please correct:",
        Locale.AR: "لم يُحفظ شيء. يرجى تصحيح:",
    },
    "changed_by_someone": {
        Locale.EN: "Someone else saved this entry after you opened it, so nothing was saved."
        " Your text is kept below; what they saved differs in:",
        Locale.AR: "حفظ شخص آخر هذا العنصر بعد أن فتحته، لذلك لم يُحفظ شيء."
        " نصك محفوظ أدناه؛ ما حفظوه يختلف في:",
    },
    "changed_save_again": {
        Locale.EN: "Save again to replace their version with yours.",
        Locale.AR: "احفظ مرة أخرى لتستبدل نسختهم بنسختك.",
    },
    "changed_before_delete": {
        Locale.EN: "Someone else changed this entry after you asked to delete it: nothing was"
        " deleted. This is it now.",
        Locale.AR: "غيّر شخص آخر هذا العنصر بعد أن طلبت حذفه: لم يُحذف شيء. هذا هو الآن.",
    },
    # Field errors
    "required": {Locale.EN: "Required.", Locale.AR: "هذا الحقل مطلوب."},
    "too_long": {
        Locale.EN: "At most {limit} characters.",
        Locale.AR: "{limit} حرفًا على الأكثر.",
    },
    "no_id": {
        Locale.EN: "The English name needs letters or digits to make an id from.",
        Locale.AR: "يجب أن يحتوي الاسم الإنجليزي على حروف أو أرقام لصنع المعرّف.",
    },
    "photo_required": {Locale.EN: "Choose a photo.", Locale.AR: "اختر صورة."},
    "photo_not_image": {
        Locale.EN: "This file is not a JPEG, PNG or WebP image.",
        Locale.AR: "هذا الملف ليس صورة JPEG أو PNG أو WebP.",
    },
    "photo_too_big": {
        Locale.EN: "The photo is larger than {mb} MB.",
        Locale.AR: "الصورة أكبر من {mb} ميغابايت.",
    },
    "photo_too_many_pixels": {
        Locale.EN: "The photo has more than {mp} million pixels.",
        Locale.AR: "الصورة تزيد على {mp} مليون بكسل.",
    },
    "not_accepted": {
        Locale.EN: "The site would not show this: {detail}",
        Locale.AR: "لن يعرض الموقع هذا: {detail}",
    },
    # Refusals
    "no_access": {
        Locale.EN: "You have no access to the studio.",
        Locale.AR: "ليس لديك صلاحية الدخول إلى الاستوديو.",
    },
    "signed_out": {
        Locale.EN: "Your session has ended. Please sign in again.",
        Locale.AR: "انتهت جلستك. يرجى تسجيل الدخول مرة أخرى.",
    },
    "bad_token": {
        Locale.EN: "This form is out of date. Go back, reload the page and try again.",
        Locale.AR: "هذا النموذج قديم. ارجع وأعد تحميل الصفحة ثم حاول مرة أخرى.",
    },
    "sign_in_unavailable": {
        Locale.EN: "Signing in is not possible right now. Try again in a minute.",
        Locale.AR: "لا يمكن تسجيل الدخول الآن. حاول مرة أخرى بعد دقيقة.",
    },
    "too_many": {
        Locale.EN: "Too many attempts. Wait a minute and try again.",
        Locale.AR: "محاولات كثيرة. انتظر دقيقة ثم حاول مرة أخرى.",
    },
    "too_large": {
        Locale.EN: "The upload is far larger than the {mb} MB a photo may be, so nothing was"
        " saved. Go back, and choose a smaller photo or a copy the phone made smaller.",
        Locale.AR: "الملف المرفوع أكبر بكثير من {mb} ميغابايت المسموح بها للصورة، لذلك لم يُحفظ"
        " شيء. عد واختر صورة أصغر أو نسخة صغّرها الهاتف.",
    },
    "not_found": {Locale.EN: "Not found.", Locale.AR: "غير موجود."},
    "back": {Locale.EN: "Back to the studio", Locale.AR: "العودة إلى الاستوديو"},
}


def text(key: str, locale: Locale, **values: object) -> str:
    return MESSAGES[key][locale].format(**values)
