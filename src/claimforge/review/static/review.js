// Keyboard grading: 1 / 2 / 3 choose the label (supported / refuted / not enough info), Enter saves.
document.addEventListener("keydown", function (ev) {
  var form = document.querySelector("form.grade");
  if (!form || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  var typing = ev.target && (ev.target.tagName === "INPUT" && ev.target.type !== "radio" || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "SELECT");
  if (typing) return;
  var labels = form.querySelectorAll('input[name="label"]');
  var i = "123".indexOf(ev.key);
  if (i >= 0 && labels[i]) { labels[i].checked = true; labels[i].focus(); ev.preventDefault(); }
  else if (ev.key === "Enter" && form.querySelector('input[name="position"]')) { ev.preventDefault(); form.requestSubmit(); }
});
window.claimforgeReview = true;  // the handlers are in place (the browser tests wait for it)

// Filters left at "any" stay out of the request (and so out of the address bar).
document.addEventListener("htmx:configRequest", function (ev) {
  var fd = ev.detail.formData;
  if (!fd || ev.detail.verb !== "get") return;
  Array.from(fd.keys()).forEach(function (k) { if (fd.get(k) === "") fd.delete(k); });
});
